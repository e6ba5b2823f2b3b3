/**
 * The tester page in a real Chromium, served by `robots serve` (one browser
 * and one pair of servers for every test).
 *
 * The grid (src/web): every cell equals `robots batch` on conformance
 * records (verdict and deciding line, docs/protocol.md#deciding-line).
 *
 * Live fetch through /api/fetch (docs/protocol.md#access-method), against
 * real servers on 127.0.0.1: status, redirects and size shown, the body
 * loaded into the editor or the compare box; private addresses refused
 * unless --allow-private; a redirect into private space read as a crawler
 * reads it; requests naming another host refused.
 *
 * No request leaves 127.0.0.1.
 */
import assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { startTester } from "../src/cli/serve-server.js";
import { compileMatcher, parseRobotsTxt } from "../src/entries/index.js";
import { readAgentName } from "../src/match/agent-name.js";
import { operatorException } from "../src/match/operator-reading.js";
import {
  type Browser,
  launchBrowser,
  outsideRequests,
  type Served,
  setFields,
  startServe,
  waitFor,
} from "./helpers/chromium.js";
import { startServer, type TestServer } from "./helpers/fetch-servers.js";
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

const BODY = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n";

let browser: Browser;
let origin: TestServer;
let open: Served;
let guarded: Served;

before(async () => {
  origin = await startServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(301, { location: "/moved/robots.txt" }).end();
    } else if (req.url === "/moved/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end(BODY);
    } else {
      res.writeHead(404).end();
    }
  });
  open = await startServe(["--allow-private"]);
  guarded = await startServe();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await open?.stop();
  await guarded?.stop();
  await origin?.close();
});

test("grid: every cell equals robots batch on conformance records (docs/protocol.md#deciding-line)", async () => {
  const cases = sample();
  assert.ok(cases.length >= 30, `only ${cases.length} typeable records`);
  const expected = await batchVerdicts(cases);
  const page = await browser.context.newPage();
  await page.goto(guarded.url);
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

test("grid: no request leaves 127.0.0.1", () => {
  assert.ok(browser.requests.length > 0, "the browser made no request at all");
  assert.deepEqual(outsideRequests(browser.requests), []);
});

async function fetchIn(page: Page, url: string, button = "fetch"): Promise<string> {
  await page.getByTestId("fetch-url").fill(url);
  await page.getByTestId(button).click();
  await waitFor(page, `document.documentElement.dataset.fetching === "0"`);
  return (await page.getByTestId("fetch-status").textContent()) ?? "";
}

test("live fetch: redirects followed, status and size shown, the body is edited and tested", async () => {
  const page = await browser.page(open.url);
  await waitFor(page, `document.documentElement.dataset.ready === "1"`);
  const status = await fetchIn(page, `${origin.origin}/some/page`);
  assert.match(status, /^ok: /);
  assert.ok(status.includes("HTTP 200"), status);
  assert.ok(status.includes(`redirect 301 → ${origin.origin}/moved/robots.txt`), status);
  assert.ok(status.includes(`${BODY.length} bytes`), status);
  assert.equal(await page.getByTestId("robots-txt").inputValue(), BODY);
  // The grid now reads the fetched rules.
  await page.getByTestId("agents").fill("GPTBot, Googlebot");
  await page.getByTestId("urls").fill("/private/x");
  const robots = parseRobotsTxt(BODY);
  for (const agent of ["GPTBot", "Googlebot"]) {
    const v = compileMatcher(robots, agent).check("/private/x");
    const cell = page.locator(`[data-testid="result"][data-agent="${agent}"]`);
    assert.equal(await cell.getAttribute("data-verdict"), v.allowed ? "allowed" : "disallowed");
    assert.equal(await cell.getAttribute("data-line"), String(v.line));
  }
  // "Fetch as deployed version" fills the compare box instead.
  await page.getByTestId("compare-txt").fill("");
  await fetchIn(page, `${origin.origin}/`, "fetch-compare");
  assert.equal(await page.getByTestId("compare-txt").inputValue(), BODY);
  browser.handBack(page);
});

test("live fetch: a 404 means no robots.txt, a closed port a server error (RFC 9309 §2.3.1.3-4)", async () => {
  const page = await browser.page(open.url);
  await waitFor(page, `document.documentElement.dataset.ready === "1"`);
  // The sample file blocks GPTBot: after each fetch the grid must show what
  // crawlers got from the site instead.
  await page.getByTestId("agents").fill("GPTBot, Googlebot");
  await page.getByTestId("urls").fill("/private/x\n/");
  const verdicts = async () =>
    (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="result"]')].map((c) => c.dataset.verdict)`,
    )) as string[];
  const missing = await startServer((_req, res) => res.writeHead(404).end());
  assert.match(await fetchIn(page, `${missing.origin}/`), /^unavailable: .*HTTP 404/);
  // 404: no rules, so every verdict is allowed; the editor says why.
  assert.match(await page.getByTestId("robots-txt").inputValue(), /^# No robots\.txt .*HTTP 404/);
  assert.deepEqual(await verdicts(), ["allowed", "allowed", "allowed", "allowed"]);
  await missing.close();
  assert.match(await fetchIn(page, `${missing.origin}/`), /^unreachable: /);
  // Unreachable: everything disallowed, marked as a stand-in.
  const standIn = await page.getByTestId("robots-txt").inputValue();
  assert.match(standIn, /^# Stand-in: .* must assume everything is disallowed/);
  assert.equal(await page.evaluate("document.documentElement.dataset.fetched"), "unreachable");
  assert.deepEqual(await verdicts(), ["disallowed", "disallowed", "disallowed", "disallowed"]);
  browser.handBack(page);
});

test("live fetch: private addresses are refused without --allow-private", async () => {
  const page = await browser.page(guarded.url);
  await waitFor(page, `document.documentElement.dataset.ready === "1"`);
  const hits = origin.hits();
  const paths = origin.paths.length;
  for (const url of [`${origin.origin}/`, origin.origin.replace("127.0.0.1", "localhost")]) {
    const status = await fetchIn(page, url);
    assert.match(status, /^refused: /, url);
    assert.match(status, /non-public address.*unless started with --allow-private/, url);
  }
  assert.equal(origin.hits(), hits);
  assert.equal(origin.paths.length, paths);
  browser.handBack(page);
});

test("live fetch: a redirect into private space is unreachable, to an IP literal or a name", async () => {
  // The tester in process, where 127.0.0.1 counts as public and
  // intranet.test resolves to 127.0.0.2 (private): a public site that
  // redirects into the user's network, once by address and once by name.
  const inner = await startServer((_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
  }, "127.0.0.2");
  const byAddress = await startServer((_q, res) =>
    res.writeHead(301, { location: `${inner.origin}/robots.txt` }).end(),
  );
  const byName = await startServer((_q, res) =>
    res.writeHead(301, { location: `http://intranet.test:${inner.port}/robots.txt` }).end(),
  );
  const lookup = (hostname: string, options: unknown, cb: (...a: unknown[]) => void) => {
    const address = hostname === "intranet.test" ? "127.0.0.2" : "127.0.0.1";
    if ((options as { all?: boolean }).all) cb(null, [{ address, family: 4 }]);
    else cb(null, address, 4);
  };
  const tester = await startTester({
    port: 0,
    host: "127.0.0.1",
    allowPrivate: false,
    classifyAddress: (a) => (a === "127.0.0.1" ? "public" : "private"),
    lookup: lookup as never,
  });
  const base = `http://127.0.0.1:${(tester.server.address() as AddressInfo).port}/`;
  const page = await browser.page("about:blank");
  try {
    const answers = [];
    for (const site of [byAddress, byName]) {
      const r = await get(base, `/api/fetch?url=${encodeURIComponent(`${site.origin}/`)}`);
      assert.equal(r.status, 200, r.body);
      const a = JSON.parse(r.body);
      assert.deepEqual([a.kind, a.reason], ["unreachable", "refused"], r.body);
      assert.match(a.message, /^redirect from a public address .*refused/);
      assert.match(
        a.message,
        /non-public address.*127\.0\.0\.2|127\.0\.0\.2, a non-public address/,
      );
      assert.match(a.message, /\(robots serve fetches only public addresses\)$/);
      answers.push(a);
    }
    assert.match(answers[1].message, /intranet\.test resolves to 127\.0\.0\.2/);
    // The page reads both the same: a server error, everything disallowed.
    await page.goto(base);
    await waitFor(page, `document.documentElement.dataset.ready === "1"`);
    await page.getByTestId("agents").fill("Googlebot");
    await page.getByTestId("urls").fill("/");
    for (const site of [byAddress, byName]) {
      const status = await fetchIn(page, `${site.origin}/`);
      assert.match(status, /^unreachable: server error/, status);
      assert.match(status, /127\.0\.0\.2/, status);
      assert.match(status, /from 12 hours after the first failure.*after 30 days/, status);
      const cell = page.locator('[data-testid="result"]');
      assert.equal(await cell.getAttribute("data-verdict"), "disallowed");
    }
    // The name asked for itself: refused by the tester, not fetched.
    const direct = await get(
      base,
      `/api/fetch?url=${encodeURIComponent(`http://intranet.test:${inner.port}/`)}`,
    );
    assert.equal(direct.status, 403);
    assert.equal(JSON.parse(direct.body).kind, "refused");
    assert.equal(inner.hits(), 0, "nothing reached the private address");
  } finally {
    browser.handBack(page);
    await new Promise<void>((resolve) => {
      tester.server.close(() => resolve());
      tester.server.closeAllConnections();
    });
    await Promise.all([inner.close(), byAddress.close(), byName.close()]);
  }
});

/** One raw GET to `robots serve`, with a Host header of our choosing. */
function get(base: string, path: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = http.get(url, { headers: host === undefined ? {} : { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

test("/api/fetch: bad input is a 400 with a reason; other hosts get 421; unknown paths 404", async () => {
  const none = await get(guarded.url, "/api/fetch");
  assert.equal(none.status, 400);
  assert.match(JSON.parse(none.body).message, /give the site's URL/);
  const scheme = await get(
    guarded.url,
    `/api/fetch?url=${encodeURIComponent("ftp://example.com/")}`,
  );
  assert.equal(scheme.status, 400);
  assert.match(JSON.parse(scheme.body).message, /ftp/);
  const v6 = await get(guarded.url, `/api/fetch?url=${encodeURIComponent("http://[::1]:9/")}`);
  assert.equal(v6.status, 403);
  assert.equal(JSON.parse(v6.body).kind, "refused");
  // A page elsewhere reaching this server through a DNS name it controls.
  const rebound = await get(guarded.url, "/", "attacker.example");
  assert.equal(rebound.status, 421);
  assert.equal((await get(guarded.url, "/nothing-here")).status, 404);
  const page = await get(guarded.url, "/");
  assert.equal(page.status, 200);
  assert.match(page.body, /data-testid="robots-txt"/);
});

test("no request leaves 127.0.0.1", () => {
  assert.ok(browser.requests.length > 0, "the browser made no request at all");
  assert.deepEqual(outsideRequests(browser.requests), []);
});
