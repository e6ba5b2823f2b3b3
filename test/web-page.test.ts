/**
 * The tester page in a real Chromium, opened from file:// (the single file
 * `npm run build:web` writes, no server): lint findings, explanations, the
 * crawler report, diff and the profiles each equal what the library or
 * `robots batch` gives for the same input, and the URL fragment reproduces
 * the page in a new tab; on a phone and a tablet the verdicts are in view.
 * No request leaves the machine. One browser serves every test.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { probePaths } from "../src/diff/probe-paths.js";
import { compileMatcher, lintRobotsTxt, parseRobotsTxt } from "../src/entries/index.js";
import { parseDocument } from "../src/explain/document.js";
import { explainUrl } from "../src/explain/explain-url.js";
import { reportCrawlers } from "../src/report/crawler-report.js";
import {
  type Browser,
  launchBrowser,
  outsideRequests,
  PAGE_FILE,
  setFields,
  type Viewport,
  waitFor,
} from "./helpers/chromium.js";
import { robots } from "./helpers/in-process.js";
import { REPO_ROOT } from "./helpers/shared.js";

const PAGE_URL = pathToFileURL(PAGE_FILE).href;

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

async function open(url = PAGE_URL, viewport?: Viewport): Promise<Page> {
  const page = await browser.page(url, viewport);
  await waitFor(page, `document.documentElement.dataset.ready === "1"`);
  return page;
}

/** Wait until lint, report, diff and the fragment have caught up with the last edit. */
async function settled(page: Page): Promise<void> {
  await waitFor(page, `document.documentElement.dataset.saved === "1"`);
}

async function grid(page: Page): Promise<[string, string, string, string][]> {
  return (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="result"]')].map((e) => [e.dataset.agent, e.dataset.url, e.dataset.verdict, e.dataset.line])`,
  )) as [string, string, string, string][];
}

/** The library's verdicts for the same inputs, in the grid's order (URL rows, agent columns). */
function libraryGrid(text: string, agents: string[], urls: string[], profile = "google") {
  const robots = parseRobotsTxt(text, { profile: profile as "google" });
  const out: [string, string, string, string][] = [];
  for (const url of urls) {
    for (const agent of agents) {
      const v = compileMatcher(robots, agent).check(url);
      out.push([agent, url, v.allowed ? "allowed" : "disallowed", String(v.line)]);
    }
  }
  return out;
}

const RULES = `User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: GPTBot
Disallow: /
`;

test("file://: the page works with no server; live fetch is off and says why", async () => {
  const page = await open();
  const agents = ["Googlebot", "GPTBot"];
  const urls = [
    "https://example.com/",
    "https://example.com/private/a",
    "/private/press/b",
    "/x.pdf",
  ];
  await page.getByTestId("robots-txt").fill(RULES);
  await page.getByTestId("agents").fill(agents.join(", "));
  await page.getByTestId("urls").fill(urls.join("\n"));
  assert.deepEqual(await grid(page), libraryGrid(RULES, agents, urls));
  assert.equal(await page.getByTestId("fetch").isDisabled(), true);
  assert.match((await page.getByTestId("fetch-status").textContent()) ?? "", /robots serve/);
  browser.handBack(page);
});

test("lint: every finding at its line with its fix, as lintRobotsTxt reports it (docs/protocol.md#directive-keys, #other-directives)", async () => {
  const text =
    "User-agent: *\nDissallow: /tmp/\nDisallow /nocolon\nAllow: /ok\nCrawl-delay: 10\n\nUser-agent: Googlebot\nDisallow: /a\nNoindex: /b\nSitemap: /relative.xml\n";
  const page = await open();
  await setFields(page, { "robots-txt": text });
  await settled(page);
  const shown = (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="diagnostic"]')].map((e) => [e.dataset.id, e.dataset.line, e.querySelector(".fix").textContent])`,
  )) as [string, string, string][];
  const expected = lintRobotsTxt(text).diagnostics.map((d) => [
    d.id,
    String(d.line),
    `Fix: ${d.fix}`,
  ]);
  assert.ok(expected.length >= 3, `the sample gives ${expected.length} findings`);
  assert.deepEqual(shown, expected);
  // Each finding marks its line in the editor.
  const marked = (await page.evaluate(
    `document.querySelectorAll("#marks .mark:not(.decide)").length`,
  )) as number;
  assert.equal(marked, new Set(expected.map((d) => d[1])).size);
  browser.handBack(page);
});

test("explain: a cell shows why, and its deciding line is marked (docs/protocol.md#deciding-line)", async () => {
  const page = await open();
  await setFields(page, {
    "robots-txt": RULES,
    agents: "Googlebot",
    urls: "https://example.com/private/press/x\n/private/y",
  });
  await page.locator('[data-testid="result"]').first().click();
  const cell = page.locator('[data-testid="result"]').first();
  const line = Number(await cell.getAttribute("data-line"));
  const expected = explainUrl(
    parseDocument(RULES),
    "Googlebot",
    "https://example.com/private/press/x",
  );
  assert.equal(line, expected.line);
  assert.ok(line > 0);
  const text = (await page.getByTestId("explanation").textContent()) ?? "";
  assert.ok(text.includes(expected.decidedBecause), text);
  assert.ok(text.includes(expected.groups.summary), text);
  for (const o of expected.others) assert.ok(text.includes(o.why), `losing rule: ${o.why}`);
  const deciding = (await page.locator(".context .deciding").textContent()) ?? "";
  assert.equal(Number(deciding.trim().split(/\s+/)[0]), line);
  assert.equal(await page.locator("#marks .mark.decide").count(), 1);
  // Keyboard: the cells are buttons, reachable and pressed with Enter.
  const second = page.locator('[data-testid="result"]').nth(1);
  await second.focus();
  await page.keyboard.press("Enter");
  assert.equal(await second.getAttribute("aria-pressed"), "true");
  assert.equal(await cell.getAttribute("aria-pressed"), "false");
  browser.handBack(page);
});

test("crawler report: every crawler's status equals reportCrawlers (robots agents)", async () => {
  const page = await open();
  await setFields(page, { "robots-txt": RULES });
  await settled(page);
  const shown = (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="crawler"]')].map((e) => [e.dataset.token, e.dataset.status])`,
  )) as [string, string][];
  const expected = reportCrawlers(parseRobotsTxt(RULES)).crawlers.map((e) => [
    e.crawler.token,
    e.status,
  ]);
  assert.deepEqual(shown, expected);
  const statuses = new Set(shown.map((s) => s[1]));
  assert.ok(statuses.has("blocked") && statuses.has("partial"), [...statuses].join());
  browser.handBack(page);
});

test("at 375 px the crawler report's status is in view without scrolling sideways; targets ≥ 24 px", async () => {
  const page = await open(PAGE_URL, { width: 375, height: 800 });
  await setFields(page, { "robots-txt": RULES });
  await settled(page);
  const boxes = (await page.evaluate(`(() => {
    const row = document.querySelector('[data-testid="crawler"]');
    const cell = row.querySelector('[data-testid="crawler-status"]');
    const wrap = row.closest(".grid-wrap");
    const c = cell.getBoundingClientRect();
    const w = wrap.getBoundingClientRect();
    const small = [...document.querySelectorAll("button, select, input")]
      .filter((e) => e.offsetParent !== null)
      .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
      .filter(([, r]) => r.height < 24 || r.width < 24)
      .map(([n, r]) => n + " " + r.width + "x" + r.height);
    return { right: c.right, wrapRight: w.right, scrollLeft: wrap.scrollLeft, docWidth: document.documentElement.scrollWidth, small };
  })()`)) as {
    right: number;
    wrapRight: number;
    scrollLeft: number;
    docWidth: number;
    small: string[];
  };
  assert.ok(boxes.right <= boxes.wrapRight && boxes.right <= 375, JSON.stringify(boxes));
  assert.equal(boxes.scrollLeft, 0);
  assert.ok(boxes.docWidth <= 375, `the page scrolls sideways: ${boxes.docWidth}`);
  assert.deepEqual(boxes.small, []);
  browser.handBack(page);
});

/*
 * On a phone and a tablet (docs/web.md): at 375×667 and 768×1024, once a
 * file is loaded, the verdicts of the first URL for every listed crawler are
 * on screen without scrolling; crawler names never break inside a word; no
 * table row is taller than what it shows; the page never scrolls sideways.
 * Screenshots are kept as test artefacts in test-artifacts/ (gitignored),
 * and their paths printed.
 */
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");

const PHONE_ROBOTS = `User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /search
`;
const PHONE_AGENTS = "Googlebot, GPTBot, Bingbot, Googlebot-Image";
const PHONE_URLS =
  "https://example.com/private/report.html\nhttps://example.com/blog/\n/search?q=1";
const PHONE_OLD = "User-agent: *\nDisallow: /blog/\n";

interface Layout {
  scrollY: number;
  innerWidth: number;
  innerHeight: number;
  docWidth: number;
  /** The first URL's verdict buttons: their boxes and whether the grid's own scroller hides them. */
  first: { agent: string; top: number; bottom: number; left: number; right: number }[];
  wrapRight: number;
  wrapScroll: number;
  /** Words of crawler names drawn on more than one line. */
  broken: string[];
  /** Rows taller than their content by more than their padding. */
  tall: string[];
}

/** What the page shows now, measured in the page. */
function measure(firstUrl: string): string {
  return `(() => {
    const first = [...document.querySelectorAll('[data-testid="result"]')]
      .filter((b) => b.dataset.url === ${JSON.stringify(firstUrl)})
      .map((b) => { const r = b.getBoundingClientRect(); return { agent: b.dataset.agent, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
    const wrap = document.querySelector('[data-testid="grid"]').closest(".grid-wrap");
    const broken = [...document.querySelectorAll(".name .w")]
      .filter((w) => w.offsetParent !== null && w.getClientRects().length > 1)
      .map((w) => w.textContent);
    const tall = [];
    for (const tr of document.querySelectorAll("#grid tbody tr, #report tbody tr, #changes tbody tr")) {
      const row = tr.getBoundingClientRect();
      if (row.height === 0) continue;
      let top = Infinity, bottom = -Infinity;
      for (const cell of tr.children) {
        const range = document.createRange();
        range.selectNodeContents(cell);
        for (const r of range.getClientRects()) {
          if (r.height === 0) continue;
          top = Math.min(top, r.top);
          bottom = Math.max(bottom, r.bottom);
        }
      }
      if (row.height - (bottom - top) > 16) tall.push(tr.textContent.slice(0, 60) + " " + row.height + " vs " + (bottom - top));
    }
    return { scrollY: scrollY, innerWidth, innerHeight, docWidth: document.documentElement.scrollWidth,
      first, wrapRight: wrap.getBoundingClientRect().right, wrapScroll: wrap.scrollLeft, broken, tall };
  })()`;
}

for (const [width, height] of [
  [375, 667],
  [768, 1024],
] as const) {
  test(`${width}×${height}: the first URL's verdicts in view, names whole, no empty rows`, async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const page = await open(PAGE_URL, { width, height });
    await setFields(page, {
      agents: PHONE_AGENTS,
      urls: PHONE_URLS,
      "compare-txt": PHONE_OLD,
      "robots-txt": PHONE_ROBOTS,
    });
    await waitFor(page, `document.documentElement.dataset.saved === "1"`);
    await page.evaluate("window.scrollTo(0, 0)");
    const shot = path.join(ARTIFACTS, `web-${width}x${height}.png`);
    const full = path.join(ARTIFACTS, `web-${width}x${height}-full.png`);
    await page.screenshot({ path: shot });
    await page.screenshot({ path: full, fullPage: true });
    console.log(`screenshots: ${shot} ${full}`);
    const m = (await page.evaluate(measure(PHONE_URLS.split("\n")[0]!))) as Layout;
    const info = JSON.stringify(m);
    assert.equal(m.scrollY, 0);
    assert.deepEqual(
      m.first.map((f) => f.agent),
      PHONE_AGENTS.split(", "),
      info,
    );
    for (const f of m.first) {
      assert.ok(f.top >= 0 && f.bottom <= m.innerHeight, `${f.agent} below the fold: ${info}`);
      assert.ok(
        f.left >= 0 && f.right <= Math.min(m.innerWidth, m.wrapRight),
        `${f.agent} off to the side: ${info}`,
      );
    }
    assert.equal(m.wrapScroll, 0);
    assert.ok(m.docWidth <= m.innerWidth, `the page scrolls sideways: ${info}`);
    assert.deepEqual(m.broken, [], "crawler names broken inside a word");
    assert.deepEqual(m.tall, [], "rows taller than their content");
    browser.handBack(page);
  });
}

test("names that are not product tokens are read as a User-agent line reads them, with a note", async () => {
  const page = await open();
  const text = "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g\n";
  await setFields(page, { "robots-txt": text, agents: "MJ12bot, Googlebot/2.1", urls: "/g" });
  const cells = await grid(page);
  assert.deepEqual(cells, [
    ["MJ12bot", "/g", "disallowed", "2"],
    ["Googlebot/2.1", "/g", "disallowed", "5"],
  ]);
  const note = (await page.locator("#grid-note").textContent()) ?? "";
  assert.match(note, /"MJ12bot" is not a product token: read as "MJ"/);
  assert.match(note, /read as "Googlebot"/);
  browser.handBack(page);
});

test("diff: every verdict that changes from the deployed version is listed, and only those", async () => {
  const deployed = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n";
  const edited = "User-agent: *\nDisallow: /private/\nDisallow: /drafts\nAllow: /private/press/\n";
  const agents = ["Googlebot", "GPTBot"];
  const urls = ["https://example.com/", "https://example.com/private/press/x"];
  const page = await open();
  await setFields(page, {
    "robots-txt": edited,
    "compare-txt": deployed,
    agents: agents.join(", "),
    urls: urls.join("\n"),
  });
  await settled(page);
  const shown = (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="change"]')].map((e) => [e.dataset.agent, e.dataset.url, e.dataset.before, e.dataset.after])`,
  )) as string[][];
  const before = parseRobotsTxt(deployed);
  const afterFile = parseRobotsTxt(edited);
  const expected: string[][] = [];
  const targets = [...urls, ...probePaths([before, afterFile]).filter((p) => !urls.includes(p))];
  for (const url of targets) {
    for (const agent of agents) {
      const b = compileMatcher(before, agent).isAllowed(url);
      const a = compileMatcher(afterFile, agent).isAllowed(url);
      if (a !== b)
        expected.push([agent, url, b ? "allowed" : "disallowed", a ? "allowed" : "disallowed"]);
    }
  }
  assert.ok(expected.length >= 3, `${expected.length} changes`);
  assert.deepEqual(shown, expected);
  browser.handBack(page);
});

test("profiles: the grid equals robots batch --profile for each (docs/protocol.md#profiles)", async () => {
  const text = "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nDisallow: /c$\n";
  const agents = ["Googlebot", "Other"];
  const urls = ["/a", "/a/b", "/a/b.pdf", "/c", "/cd", "/x.pdf"];
  const page = await open();
  await setFields(page, { "robots-txt": text, agents: agents.join(", "), urls: urls.join("\n") });
  const grids = new Map<string, string>();
  for (const profile of ["google", "rfc9309", "legacy1996"]) {
    await page.getByTestId("profile").selectOption(profile);
    const shown = await grid(page);
    const input = JSON.stringify({
      robots: text,
      checks: urls.flatMap((url) => agents.map((agent) => ({ agent, url }))),
    });
    const out = await robots(["batch", "--profile", profile], { stdin: input });
    assert.equal(out.code, 0, out.stderr);
    const results = (JSON.parse(out.stdout) as { results: { allowed: boolean; line: number }[] })
      .results;
    assert.deepEqual(
      shown.map((c) => `${c[2]} ${c[3]}`),
      results.map((r) => `${r.allowed ? "allowed" : "disallowed"} ${r.line}`),
      profile,
    );
    grids.set(profile, JSON.stringify(shown));
  }
  // The sample file is read differently under the 1996 draft: the selector does something.
  assert.notEqual(grids.get("google"), grids.get("legacy1996"));
  browser.handBack(page);
});

test("size limit: the grid reads the first 500 KiB, as robots check does, and says so (docs/protocol.md#access-method)", async () => {
  // A rule after 500 KiB of comments is never read by a crawler.
  const filler = `# ${"x".repeat(98)}\n`.repeat(5300);
  const text = `User-agent: *\nDisallow: /early/\n${filler}Disallow: /late/\n`;
  const urls = ["https://example.com/early/a", "https://example.com/late/a"];
  const page = await open();
  await setFields(page, { "robots-txt": text, agents: "AnyBot", urls: urls.join("\n") });
  await settled(page);
  // The crawler's reading (crawlerView), which robots check uses by default.
  const doc = parseDocument(text);
  const expected = urls.map((url) => {
    const v = compileMatcher(doc.robots, "AnyBot").check(url);
    return `${v.allowed ? "allowed" : "disallowed"} ${v.line}`;
  });
  assert.deepEqual(expected, ["disallowed 2", "allowed 0"]);
  const shown = await grid(page);
  assert.deepEqual(
    shown.map((c) => `${c[2]} ${c[3]}`),
    expected,
  );
  const note = (await page.evaluate(`document.getElementById("file-note").textContent`)) as string;
  assert.match(note, /crawlers read only the first 512,000 \(500 KiB\)/);
  assert.ok(
    note.includes(`end in line ${doc.lastLineRead} of ${doc.lineCount.toLocaleString("en")}`),
    note,
  );
  browser.handBack(page);
});

test("fragment: a link reproduces the inputs and the grid in a new page", async () => {
  const page = await open();
  await page.getByTestId("robots-txt").fill(RULES);
  await page.getByTestId("agents").fill("GPTBot, Googlebot, ÜberBot");
  await page.getByTestId("urls").fill("/private/x\n/private/press/y?q=ä\n/z.pdf");
  await page.getByTestId("compare-txt").fill("User-agent: *\nDisallow:\n");
  await page.getByTestId("profile").selectOption("rfc9309");
  await settled(page);
  const link = page.url();
  assert.match(link, /#s1=/);
  const first = await grid(page);
  const changes = await page.getByTestId("changes").textContent();
  const other = await open(link);
  assert.equal(await other.getByTestId("robots-txt").inputValue(), RULES);
  assert.equal(await other.getByTestId("agents").inputValue(), "GPTBot, Googlebot, ÜberBot");
  assert.equal(
    await other.getByTestId("urls").inputValue(),
    "/private/x\n/private/press/y?q=ä\n/z.pdf",
  );
  assert.equal(await other.getByTestId("profile").inputValue(), "rfc9309");
  assert.deepEqual(await grid(other), first);
  await settled(other);
  assert.equal(await other.getByTestId("changes").textContent(), changes);
  // A damaged fragment falls back to the sample instead of failing.
  const broken = await open(`${PAGE_URL}#s1=not-deflate!!`);
  assert.ok((await grid(broken)).length > 0);
  browser.handBack(page, other, broken);
});

/** The lint list as shown: [id, line] per finding. */
async function findings(page: Page): Promise<[string, string][]> {
  return (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="diagnostic"]')].map((e) => [e.dataset.id, e.dataset.line])`,
  )) as [string, string][];
}

test("rapid edits: the grid, lint and link end consistent with the final text", async () => {
  const agents = ["Googlebot", "GPTBot", "Bingbot"];
  const urls = ["/a/1", "/b/2", "/private/x", "/private/press/y", "/docs/z.pdf"];
  const page = await open();
  await setFields(page, { "robots-txt": RULES, agents: agents.join(", "), urls: urls.join("\n") });
  await settled(page);
  const editor = page.getByTestId("robots-txt");
  await editor.focus();
  await page.keyboard.press("Control+End");
  // Keys with no pause, then a pause long enough for the worker to start on
  // a state the next keys replace, then more keys: each changes verdicts or
  // findings, and only the last state may be shown once the page settles.
  await page.keyboard.type("\nUser-agent: Bingbot\nDisallow: /a\n");
  await new Promise((r) => setTimeout(r, 200));
  await page.keyboard.type("Dissallow: /b\nDisallow: /bx");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("\nAllow: /private/");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
  await settled(page);
  const text = await editor.inputValue();
  assert.equal(
    text,
    `${RULES}\nUser-agent: Bingbot\nDisallow: /a\nDissallow: /b\nDisallow: /b\nAllow: /privat`,
  );
  const expected = libraryGrid(text, agents, urls);
  assert.deepEqual(await grid(page), expected);
  assert.ok(
    expected.some((c) => c[0] === "Bingbot" && c[2] === "disallowed"),
    "the edits changed Bingbot's verdicts",
  );
  const lint = lintRobotsTxt(text).diagnostics.map((d) => [d.id, String(d.line)]);
  assert.ok(lint.length > 0, "the edits gave a finding");
  assert.deepEqual(await findings(page), lint);
  assert.equal(await page.evaluate("document.documentElement.dataset.worker"), "1");
  // The address bar holds the final state: a new page shows the same.
  const other = await open(page.url());
  assert.equal(await other.getByTestId("robots-txt").inputValue(), text);
  assert.deepEqual(await grid(other), expected);
  await settled(other);
  assert.deepEqual(await findings(other), lint);
  browser.handBack(page, other);
});

test("without a worker the page computes lint, report and link itself", async () => {
  const page = await browser.context.newPage();
  await page.addInitScript("delete window.Worker");
  await page.goto(PAGE_URL);
  await waitFor(page, `document.documentElement.dataset.ready === "1"`);
  const text = "User-agent: *\nDissallow: /tmp/\nDisallow: /x\n";
  await setFields(page, { "robots-txt": text });
  await settled(page);
  assert.deepEqual(
    await findings(page),
    lintRobotsTxt(text).diagnostics.map((d) => [d.id, String(d.line)]),
  );
  assert.equal(await page.evaluate("document.documentElement.dataset.worker"), undefined);
  assert.match(page.url(), /#s1=/);
  await page.close();
});

test("build: one self-contained file, no outside resources, script ≤ 60 kB gzipped", () => {
  const html = readFileSync(PAGE_FILE, "utf8");
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
  assert.ok(script.length > 10_000, "the bundle is inlined");
  const gz = gzipSync(script).length;
  assert.ok(gz <= 60_000, `${gz} bytes gzipped`);
  // Nothing to load: the markup and style have no src or href attribute and
  // no stylesheet or font URL (the script's own strings are data).
  const markup = html.replace(script, "");
  assert.doesNotMatch(markup, /\s(?:src|href)\s*=|@import|url\(/i);
});

test("no request leaves the machine (file:// only)", () => {
  assert.ok(browser.requests.length > 0, "the browser made no request at all");
  assert.deepEqual(outsideRequests(browser.requests), []);
});
