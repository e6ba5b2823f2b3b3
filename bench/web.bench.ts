/**
 * `npm run bench -- web`: the tester page in Chromium with a 500 KiB
 * robots.txt, 5 crawlers and 100 URLs. Measured in the browser: from an
 * edit (the textarea's input event) to the updated grid in the DOM, and to
 * the next paint after it; goal ≤ 50 ms. For scale, in the same page and
 * the same run: robots-parser@3 (what npm users pick today) parsing the same
 * text and answering the same 500 checks, with no DOM work at all.
 * Timings are printed, never asserted (STYLE.md).
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { launchBrowser, PAGE_FILE, setFields, waitFor } from "../test/helpers/chromium.js";
import { REPO_ROOT } from "../test/helpers/shared.js";

const require = createRequire(import.meta.url);
const TARGET_BYTES = 500 * 1024 - 64;
const EDITS = 25;

/** A deterministic generator (mulberry32): the same file every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["shop", "cart", "search", "account", "media", "docs", "api", "blog", "tag", "user"];

/** ~500 KiB of groups for many agents, with prefixes, `*` and `$` patterns, like large real files. */
function bigRobotsTxt(): string {
  const rnd = random(20240611);
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
  const rnd = random(7);
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

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, min ${s[0]!.toFixed(1)} ms`;
}

export async function run(): Promise<void> {
  console.log(
    "\n## web: edit → updated grid in Chromium (500 KiB robots.txt, 5 crawlers × 100 URLs)",
  );
  execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts/build-web.mjs")], {
    stdio: "inherit",
  });
  const text = bigRobotsTxt();
  const list = urls();
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
    // Each edit changes one rule in the middle of the file, as typing does,
    // then waits for lint, report and the link to catch up before the next.
    const timings = (await page.evaluate(
      `(async () => {
        const ta = document.querySelector('[data-testid="robots-txt"]');
        const base = ta.value;
        const at = base.indexOf("Disallow: ", base.length >> 1);
        const grid = [], painted = [], settled = [];
        for (let i = 0; i < ${EDITS}; i++) {
          const edited = base.slice(0, at) + "Disallow: /edit" + i + base.slice(at + 10);
          const t0 = performance.now();
          ta.value = edited;
          ta.dispatchEvent(new Event("input", { bubbles: true }));
          grid.push(performance.now() - t0);
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          painted.push(performance.now() - t0);
          while (document.documentElement.dataset.saved !== "1") await new Promise((r) => setTimeout(r, 5));
          settled.push(performance.now() - t0);
        }
        return { grid, painted, settled };
      })()`,
    )) as { grid: number[]; painted: number[]; settled: number[] };
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
    console.log(
      `file: ${text.length.toLocaleString("en")} bytes; grid: ${cells} cells; ${EDITS} edits`,
    );
    console.log(`edit → grid in the DOM:        ${stats(timings.grid)}   (goal ≤ 50 ms)`);
    console.log(`edit → next paint:             ${stats(timings.painted)}`);
    console.log(`edit → lint, report, link too: ${stats(timings.settled)}`);
    console.log(`robots-parser@3, same page, parse + 500 checks, no DOM: ${stats(peer.out)}`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    console.log(
      `ratio: robots-parser's checks alone take ${(median(peer.out) / median(timings.grid)).toFixed(1)}x the page's whole edit → grid`,
    );
  } finally {
    await browser.close();
  }
}
