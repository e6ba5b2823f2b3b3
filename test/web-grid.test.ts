/**
 * The tester page's grid (src/web) in a real Chromium, served by
 * `robots serve`: every cell equals `robots batch` on conformance records
 * (verdict and deciding line, docs/protocol.md#deciding-line), and no request leaves 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { readAgentName } from "../src/match/agent-name.js";
import { operatorException } from "../src/match/operator-reading.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import {
  type Browser,
  launchBrowser,
  outsideRequests,
  type Served,
  setFields,
  startServe,
} from "./helpers/chromium.js";
import { robots } from "./helpers/in-process.js";
import { bodyOf, type ConformanceRecord, conformanceSetLines } from "./helpers/shared.js";

interface GridCase {
  id: string;
  body: Buffer;
  text: string;
  agents: string[];
  urls: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Records a person can type into the page: the body is UTF-8 (a textarea
 * holds text, not bytes), agents hold no comma (the list's separator) and
 * URLs no line break, and neither starts or ends with spaces (the inputs are
 * trimmed). Under 400 KiB, so the crawler's 500 KiB view is the whole file,
 * as for `robots batch`.
 */
function typeable(rec: ConformanceRecord): GridCase | null {
  const body = bodyOf(rec);
  if (body.length > 400 * 1024) return null;
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return null;
  }
  if (text.startsWith("\uFEFF")) return null;
  const agents: string[] = [];
  const urls: string[] = [];
  for (const c of rec.checks) {
    if (c.agent === "" || c.agent.includes(",") || c.agent.trim() !== c.agent) return null;
    if (c.url === "" || /[\r\n]/.test(c.url) || c.url.trim() !== c.url) return null;
    if (!agents.includes(c.agent)) agents.push(c.agent);
    if (!urls.includes(c.url)) urls.push(c.url);
  }
  return { id: rec.id, body, text, agents, urls };
}

function sample(): GridCase[] {
  const out: GridCase[] = [];
  for (const set of conformanceSetLines()) {
    const want = set.name.includes("corpus") ? 12 : 40;
    const step = Math.max(1, Math.floor(set.length / (want * 3)));
    let taken = 0;
    for (let i = 0; i < set.length && taken < want; i += step) {
      const c = typeable(set.record(i));
      if (c === null) continue;
      // robots batch gives the reference's reading; the grid lets a
      // documented exception (AdsBot-Google ignores *) decide, which
      // agent-names.test.ts checks. Compare where the readings are one.
      const robots = parseRobotsTxt(c.body);
      if (c.agents.some((a) => operatorException(robots, readAgentName(a).token) !== null)) {
        continue;
      }
      out.push(c);
      taken++;
    }
  }
  return out;
}

/** `robots batch` on the record's own bytes, for every agent × URL of the case. */
async function batchVerdicts(cases: readonly GridCase[]): Promise<Map<string, string>[]> {
  const input = cases
    .map((c) =>
      JSON.stringify({
        robotsBase64: c.body.toString("base64"),
        checks: c.urls.flatMap((url) => c.agents.map((agent) => ({ agent, url }))),
      }),
    )
    .join("\n");
  const r = await robots(["batch"], { stdin: input });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout
    .trim()
    .split("\n")
    .map((line, i) => {
      const c = cases[i]!;
      const results = (JSON.parse(line) as { results: { allowed: boolean; line: number }[] })
        .results;
      const map = new Map<string, string>();
      let k = 0;
      for (const url of c.urls) {
        for (const agent of c.agents) {
          const r = results[k++]!;
          map.set(
            JSON.stringify([agent, url]),
            `${r.allowed ? "allowed" : "disallowed"} ${r.line}`,
          );
        }
      }
      return map;
    });
}

/** The grid as the page shows it: [agent, url] → "verdict line". */
async function readGrid(page: Page): Promise<Map<string, string>> {
  const cells = (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="result"]')].map((e) => [e.dataset.agent, e.dataset.url, e.dataset.verdict, e.dataset.line])`,
  )) as [string, string, string, string][];
  return new Map(cells.map(([a, u, v, l]) => [JSON.stringify([a, u]), `${v} ${l}`]));
}

let browser: Browser;
let served: Served;

before(async () => {
  served = await startServe();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await served?.stop();
});

test("grid: every cell equals robots batch on conformance records (docs/protocol.md#deciding-line)", async () => {
  const cases = sample();
  assert.ok(cases.length >= 30, `only ${cases.length} typeable records`);
  const expected = await batchVerdicts(cases);
  const page = await browser.context.newPage();
  await page.goto(served.url);
  await page.waitForSelector('[data-testid="result"]');
  let cells = 0;
  const verdicts = new Set<string>();
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    await setFields(page, {
      "robots-txt": c.text,
      agents: c.agents.join(", "),
      urls: c.urls.join("\n"),
    });
    const shown = await readGrid(page);
    assert.deepEqual(shown, expected[i], `record ${c.id}`);
    cells += shown.size;
    for (const v of shown.values()) verdicts.add(v.split(" ")[0]!);
  }
  // The sample exercised both verdicts over many cells.
  assert.ok(cells >= 100, `${cells} cells`);
  assert.deepEqual([...verdicts].sort(), ["allowed", "disallowed"]);
  await page.close();
});

test("page: no request leaves 127.0.0.1", () => {
  assert.ok(browser.requests.length > 0, "the browser made no request at all");
  assert.deepEqual(outsideRequests(browser.requests), []);
});
