/**
 * `npm run bench -- web`: the tester page in Chromium with a 500 KiB
 * robots.txt, 5 crawlers and 100 URLs; goal: edit → updated grid ≤ 50 ms.
 *
 * Each edit is a real keystroke (Playwright's keyboard, so the browser's
 * own editing runs) in the middle of the file, typing or deleting one
 * character of a rule so that the verdict of three cells flips. Timed in the
 * page: from the keydown event's timestamp to the moment a MutationObserver
 * sees the target cell show the new verdict (edit → grid), and to the task
 * after the next animation frame (edit → next paint). Two runs: single
 * edits, each after the page has settled (lint, report and link included:
 * edit → settled), and typing at an uneven pace (60–400 ms between keys)
 * so that keystrokes also land while the worker's answers are shown.
 *
 * For scale, in the same run: a bare textarea holding the same file (the
 * browser's own cost of a keystroke there: keydown → input event, and →
 * next paint) and its first 25, 50 and 125 KiB (how that cost grows), and
 * robots-parser@3 (what npm users pick today) parsing the same text and
 * answering the same 500 checks, with no DOM work at all. The page's User
 * Timing measures (`robots:*`) say where the time goes. Timings are
 * printed, never asserted.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { launchBrowser, PAGE_FILE, setFields, waitFor } from "../test/helpers/chromium.js";
import { seededRandom } from "../test/helpers/prng.js";
import { REPO_ROOT } from "../test/helpers/shared.js";

const require = createRequire(import.meta.url);
const TARGET_BYTES = 500 * 1024 - 64;
/** Single edits, each after the page settled. */
const EDITS = 30;
/** Keystrokes typed at an uneven pace, and the pauses between them (cycled). */
const TYPED = 48;
const PACE_MS = [60, 400, 120, 250, 90, 180];
/** The rule the keystrokes edit, put in a `User-agent: *` group in the middle of the file. */
const PROBE_RULE = "Disallow: /probe/";
const PROBE_URL = "https://example.com/probe/page";

const WORDS = ["shop", "cart", "search", "account", "media", "docs", "api", "blog", "tag", "user"];

/** ~500 KiB of groups for many agents, with prefixes, `*` and `$` patterns, like large real files. */
function bigRobotsTxt(): string {
  const rnd = seededRandom(20240611);
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  let out = "# generated for the web bench\n";
  let group = 0;
  while (out.length < TARGET_BYTES - 200) {
    const agent = group % 7 === 0 ? "*" : group % 5 === 0 ? "Googlebot" : `Bot${group}`;
    let block = `\nUser-agent: ${agent}\n`;
    for (let r = 0; r < 40; r++) {
      const kind = rnd() < 0.8 ? "Disallow" : "Allow";
      const n = Math.floor(rnd() * 10_000);
      const shape = rnd();
      const pattern =
        shape < 0.5
          ? `/${pick()}/${pick()}-${n}/`
          : shape < 0.8
            ? `/${pick()}/*${pick()}=${n}`
            : `/${pick()}/${n}*.pdf$`;
      block += `${kind}: ${pattern}\n`;
    }
    if (out.length + block.length > TARGET_BYTES) break;
    out += block;
    group++;
  }
  return out;
}

function urls(): string[] {
  const rnd = seededRandom(7);
  const out: string[] = [];
  for (let i = 0; i < 100; i++) {
    const a = WORDS[i % WORDS.length]!;
    const b = WORDS[Math.floor(rnd() * WORDS.length)]!;
    const n = Math.floor(rnd() * 10_000);
    out.push(
      i % 3 === 0
        ? `https://example.com/${a}/${b}-${n}/page`
        : i % 3 === 1
          ? `https://example.com/${a}/list?${b}=${n}`
          : `https://example.com/${a}/${n}/file.pdf`,
    );
  }
  return out;
}

const AGENTS = ["Googlebot", "Bingbot", "GPTBot", "Bot12", "AnyOtherBot"];

/** robots-parser@3 as one browser script defining globalThis.robotsParser. */
async function peerScript(): Promise<string> {
  const result = await build({
    entryPoints: [require.resolve("robots-parser")],
    bundle: true,
    format: "iife",
    globalName: "robotsParser",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The bench's file: the generated one with PROBE_RULE in a `*` group past its middle. */
function benchFile(): { text: string; caret: number } {
  const text = bigRobotsTxt();
  const group = text.indexOf("User-agent: *\n", text.length >> 1);
  const at = group + "User-agent: *\n".length;
  const out = `${text.slice(0, at)}${PROBE_RULE}\n${text.slice(at)}`;
  // Between "/probe" and the last "/": typing there makes the rule miss PROBE_URL.
  return { text: out, caret: at + PROBE_RULE.length - 1 };
}

interface Edit {
  /** keydown → the input event: the browser's own editing of the textarea. */
  input: number;
  /** keydown → the target cell shows the new verdict. */
  grid: number;
  /** keydown → the task after the next animation frame. */
  paint: number;
  /** keydown → `<html data-saved="1">` (lint, report, comparison and link shown). */
  settled: number;
  /** The page's own measures of that edit (ms): parse, checks, grid-dom. */
  phases: Record<string, number>;
}

/**
 * Watch the grid: for each keydown in the editor, the time until the target
 * cell shows the verdict that keystroke gives, and until the next frame.
 */
const RECORDER = `(() => {
  const ta = document.querySelector('[data-testid="robots-txt"]');
  const cell = document.querySelector('[data-testid="result"][data-agent="AnyOtherBot"][data-url="${PROBE_URL}"]');
  if (cell === null) throw new Error("no target cell");
  window.benchEdits = [];
  let pending = null;
  let last = null;
  ta.addEventListener("keydown", (e) => {
    pending = { t0: e.timeStamp, input: NaN, want: e.key === "Backspace" ? "disallowed" : "allowed" };
    last = null;
  }, true);
  window.addEventListener("input", () => {
    if (pending !== null) pending.input = performance.now() - pending.t0;
  }, true);
  const root = document.documentElement;
  new MutationObserver(() => {
    if (last !== null && root.dataset.saved === "1") {
      last.rec.settled = performance.now() - last.t0;
      last = null;
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-saved"] });
  const phase = (n) => performance.getEntriesByName("robots:" + n)[0]?.duration ?? NaN;
  new MutationObserver(() => {
    if (pending === null || cell.dataset.verdict !== pending.want) return;
    const p = pending;
    pending = null;
    const rec = { input: p.input, grid: performance.now() - p.t0, paint: NaN, settled: NaN,
      phases: { parse: phase("parse"), checks: phase("checks"), "grid-dom": phase("grid-dom") } };
    window.benchEdits.push(rec);
    last = { rec, t0: p.t0 };
    requestAnimationFrame(() => setTimeout(() => { rec.paint = performance.now() - p.t0; }, 0));
  }).observe(cell, { attributes: true, attributeFilter: ["data-verdict"] });
})()`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function edits(page: Page): Promise<Edit[]> {
  const got = (await page.evaluate("window.benchEdits")) as Edit[];
  await page.evaluate("window.benchEdits = []");
  return got;
}

/** Keystrokes alternate: a character that makes the probe rule miss, then Backspace. */
const key = (i: number) => (i % 2 === 0 ? "x" : "Backspace");

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)}, range ${s[0]!.toFixed(1)}–${s[s.length - 1]!.toFixed(1)} (n ${s.length})`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

export async function run(): Promise<void> {
  console.log(
    "\n## web: edit → updated grid in Chromium (500 KiB robots.txt, 5 crawlers × 100 URLs)",
  );
  execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts/build-web.mjs")], {
    stdio: "inherit",
  });
  const { text, caret } = benchFile();
  const list = [...urls().slice(0, 99), PROBE_URL];
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(PAGE_FILE).href);
    await waitFor(page, `document.documentElement.dataset.ready === "1"`);
    await setFields(page, { "robots-txt": text, agents: AGENTS.join(", "), urls: list.join("\n") });
    await waitFor(page, `document.documentElement.dataset.saved === "1"`);
    const cells = (await page.evaluate(
      `document.querySelectorAll('[data-testid="result"]').length`,
    )) as number;
    await page.evaluate(RECORDER);
    await page.evaluate(
      `(() => { const ta = document.querySelector('[data-testid="robots-txt"]'); ta.focus(); ta.setSelectionRange(${caret}, ${caret}); })()`,
    );
    // Single edits: each waits for lint, report and the link to catch up.
    const slowNames = ["lint", "report", "link", "slow-dom", "link-write"];
    const slow = new Map(slowNames.map((n) => [n, [] as number[]]));
    for (let i = 0; i < EDITS; i++) {
      await page.keyboard.press(key(i));
      await waitFor(page, `document.documentElement.dataset.saved === "1"`);
      const got = (await page.evaluate(
        `${JSON.stringify(slowNames)}.map((n) => performance.getEntriesByName("robots:" + n)[0]?.duration ?? NaN)`,
      )) as number[];
      for (const [j, n] of slowNames.entries()) slow.get(n)!.push(got[j]!);
      await sleep(200);
    }
    const single = await edits(page);
    // Typing: keys at an uneven pace, never waiting for the page.
    for (let i = 0; i < TYPED; i++) {
      await page.keyboard.press(key(i));
      await sleep(PACE_MS[i % PACE_MS.length]!);
    }
    await waitFor(page, `document.documentElement.dataset.saved === "1"`);
    const typed = await edits(page);
    const finalText = (await page.evaluate(
      `document.querySelector('[data-testid="robots-txt"]').value`,
    )) as string;
    if (single.length !== EDITS || typed.length !== TYPED || finalText !== text) {
      throw new Error(
        `the grid missed edits: ${single.length}/${EDITS} single, ${typed.length}/${TYPED} typed; text ${finalText === text ? "as before" : "changed"}`,
      );
    }
    const bare = await bareTextarea(browser.context, text, caret);
    // The browser's cost by the size of the text: the first 25, 50 and 125 KiB, a key in the middle.
    const bySize: [number, number][] = [];
    for (const kib of [25, 50, 125]) {
      const part = text.slice(0, kib * 1024);
      const keys = await bareTextarea(browser.context, part, part.length >> 1);
      bySize.push([kib, median(keys.map((e) => e.input))]);
    }
    bySize.push([Math.round(text.length / 1024), median(bare.map((e) => e.input))]);
    await page.addScriptTag({ content: await peerScript() });
    const peer = (await page.evaluate(
      `(() => {
        const text = document.querySelector('[data-testid="robots-txt"]').value;
        const agents = ${JSON.stringify(AGENTS)};
        const urls = ${JSON.stringify(list)};
        const factory = robotsParser.default ?? robotsParser;
        const out = [];
        let sink = 0;
        for (let i = 0; i < ${EDITS}; i++) {
          const t0 = performance.now();
          const r = factory("https://example.com/robots.txt", text + "#" + i);
          for (const u of urls) for (const a of agents) if (r.isAllowed(u, a)) sink++;
          out.push(performance.now() - t0);
        }
        return { out, sink };
      })()`,
    )) as { out: number[]; sink: number };
    const phases = (name: string) => single.map((e) => e.phases[name]!);
    console.log(`file: ${text.length.toLocaleString("en")} bytes; grid: ${cells} cells`);
    const show = (runs: Edit[]) => {
      console.log(`  edit → grid in the DOM:  ${stats(runs.map((e) => e.grid))}   (goal ≤ 50 ms)`);
      console.log(
        `    keydown → input event (the browser edits the textarea): ${stats(runs.map((e) => e.input))}`,
      );
      console.log(
        `    input event → grid (the page):                          ${stats(runs.map((e) => e.grid - e.input))}`,
      );
      console.log(`  edit → next paint:       ${stats(runs.map((e) => e.paint))}`);
    };
    console.log(`single edits (${EDITS}, each after the page settled):`);
    show(single);
    console.log(
      `  edit → lint, report, comparison and link shown: ${stats(single.map((e) => e.settled))}`,
    );
    console.log(
      `typing (${TYPED} keys, ${PACE_MS.join("/")} ms apart, never waiting for the page):`,
    );
    show(typed);
    console.log("a bare textarea holding the same file, no script:");
    console.log(`  keydown → input event:   ${stats(bare.map((e) => e.input))}`);
    console.log(`  edit → next paint:       ${stats(bare.map((e) => e.paint))}`);
    console.log(
      `  keydown → input event by the text's size (medians): ${bySize.map(([k, ms]) => `${k} KiB ${ms.toFixed(1)} ms`).join(", ")}`,
    );
    console.log(
      `where an edit's time goes (medians, ms): in the input handler parse ${median(phases("parse")).toFixed(1)}, ` +
        `checks ${median(phases("checks")).toFixed(1)}, grid DOM ${median(phases("grid-dom")).toFixed(1)}; ` +
        `then, in the worker: lint ${median(slow.get("lint")!).toFixed(1)}, report ${median(slow.get("report")!).toFixed(1)}, ` +
        `link ${median(slow.get("link")!).toFixed(1)}; on the page: showing them ${median(slow.get("slow-dom")!).toFixed(1)}, ` +
        `writing the link ${median(slow.get("link-write")!).toFixed(1)}`,
    );
    console.log(`robots-parser@3, same page, parse + 500 checks, no DOM: ${stats(peer.out)}`);
    console.log(
      `ratios (medians): the page's edit → grid is ${(median(single.map((e) => e.grid)) / median(peer.out)).toFixed(2)}x robots-parser's checks alone; ` +
        `its edit → next paint ${(median(single.map((e) => e.paint)) / median(bare.map((e) => e.paint))).toFixed(2)}x the bare textarea's`,
    );
    console.log(`load average at the end: ${load()}`);
  } finally {
    await browser.close();
  }
}

/** The browser's own cost of a keystroke in a textarea holding `text`: keydown → input event, → next paint. */
async function bareTextarea(
  context: Awaited<ReturnType<typeof launchBrowser>>["context"],
  text: string,
  caret: number,
): Promise<{ input: number; paint: number }[]> {
  const page = await context.newPage();
  await page.setContent(
    `<textarea spellcheck="false" wrap="off" style="width: 600px; height: 420px; font: 13px/20px monospace"></textarea>`,
  );
  await page.evaluate(
    `(() => {
      const ta = document.querySelector("textarea");
      ta.value = ${JSON.stringify(text)};
      ta.focus();
      ta.setSelectionRange(${caret}, ${caret});
      window.benchPaint = [];
      let t0 = 0;
      ta.addEventListener("keydown", (e) => { t0 = e.timeStamp; });
      ta.addEventListener("input", () => {
        const rec = { input: performance.now() - t0, paint: NaN };
        const start = t0;
        window.benchPaint.push(rec);
        requestAnimationFrame(() => setTimeout(() => { rec.paint = performance.now() - start; }, 0));
      });
    })()`,
  );
  for (let i = 0; i < EDITS; i++) {
    await page.keyboard.press(key(i));
    await sleep(200);
  }
  const out = (await page.evaluate("window.benchPaint")) as { input: number; paint: number }[];
  await page.close();
  return out;
}
