/**
 * The tester on a phone and a tablet, in a real Chromium (docs/web.md): at
 * 375×667 and 768×1024, once a file is loaded, the verdicts of the first URL
 * for every listed crawler are on screen without scrolling; crawler names
 * never break inside a word; no table row is taller than what it shows; the
 * page never scrolls sideways. Screenshots are kept as test artefacts in
 * test-artifacts/ (gitignored), and their paths printed.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type Browser, launchBrowser, PAGE_FILE, setFields, waitFor } from "./helpers/chromium.js";
import { REPO_ROOT } from "./helpers/shared.js";

const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");

const ROBOTS = `User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /search
`;
const AGENTS = "Googlebot, GPTBot, Bingbot, Googlebot-Image";
const URLS = "https://example.com/private/report.html\nhttps://example.com/blog/\n/search?q=1";
const OLD = "User-agent: *\nDisallow: /blog/\n";

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await browser?.close();
});

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
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(pathToFileURL(PAGE_FILE).href);
    await waitFor(page, `document.documentElement.dataset.ready === "1"`);
    await setFields(page, {
      agents: AGENTS,
      urls: URLS,
      "compare-txt": OLD,
      "robots-txt": ROBOTS,
    });
    await waitFor(page, `document.documentElement.dataset.saved === "1"`);
    await page.evaluate("window.scrollTo(0, 0)");
    const shot = path.join(ARTIFACTS, `web-${width}x${height}.png`);
    const full = path.join(ARTIFACTS, `web-${width}x${height}-full.png`);
    await page.screenshot({ path: shot });
    await page.screenshot({ path: full, fullPage: true });
    console.log(`screenshots: ${shot} ${full}`);
    const m = (await page.evaluate(measure(URLS.split("\n")[0]!))) as Layout;
    const info = JSON.stringify(m);
    assert.equal(m.scrollY, 0);
    assert.deepEqual(
      m.first.map((f) => f.agent),
      AGENTS.split(", "),
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
    await page.close();
  });
}
