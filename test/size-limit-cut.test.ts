/**
 * Counterexamples the property tests found at the size limit's cut line
 * (docs/protocol.md#size-limit), kept as plain cases: the library, the CLI
 * and the client through a loopback server give the same verdict, and it is
 * never more permissive than the line as read, in every profile.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { fetchRobotsTxt, RobotsClient } from "../src/entries/node.js";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { compileMatcher } from "../src/match/compile.js";
import { crawlerView, cutLineFate } from "../src/parse/crawler-view.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { PROFILES, type Profile } from "../src/protocol/profile.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../src/protocol/size-limit.js";
import { crawlerRobots } from "../src/web/engine.js";
import { startServe } from "./helpers/chromium.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const UA = "FooBot/1.0 (+https://example.com/bot)";
const enc = new TextEncoder();
const tmp = mkdtempSync(path.join(tmpdir(), "robots-cut-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * `lines` with a comment line padding them so that the limit falls right
 * after the first `cutAfter` bytes of the last line, which goes on with
 * `rest` and a line ending.
 */
function bodyCutAt(lines: string, last: string, cutAfter: number, rest = ""): string {
  const fill = ROBOTS_TXT_SIZE_LIMIT - lines.length - cutAfter - 2;
  return `${lines}#${"x".repeat(fill)}\n${last}${rest}\n`;
}

// fast-check, the size-limit property: `allow: /` then `Disallow: /$/`
// cut right after the `$`. Applied as `Disallow: /` (the `$` dropped) it
// tied with `Allow: /` at one octet and lost; read as `Disallow: /$` (two
// octets) it wins, and `/` is disallowed.
const TIED = bodyCutAt("User-agent: *\nallow: /\n", "Disallow: /$", "Disallow: /$".length, "/");
// An earlier one: `Disallow:/$*` cut after the `$` anchored `/`, and no
// longer blocked `/$x`, which the whole line blocks.
const ANCHORED = bodyCutAt("User-agent: *\n", "Disallow:/$", "Disallow:/$".length, "*");

/** What each profile answers for `path` in `body`, and why (rule kind, line). */
const expected: Record<string, Record<Profile, Record<string, boolean>>> = {
  TIED: {
    // google, rfc9309: `Disallow: /*` (priority 2) beats `Allow: /` (1).
    google: { "/": false, "/$": false, "/x": false },
    rfc9309: { "/": false, "/$": false, "/x": false },
    // legacy1996: the first prefix in file order decides, `allow: /`.
    legacy1996: { "/": true, "/$": true, "/x": true },
  },
  ANCHORED: {
    google: { "/": false, "/$x": false, "/x": false },
    rfc9309: { "/": false, "/$x": false, "/x": false },
    // legacy1996: `$` is a literal byte, applied as read.
    legacy1996: { "/": true, "/$x": false, "/x": true },
  },
};
const bodies = { TIED, ANCHORED };

describe("the line the size limit cuts, counterexamples kept (docs/protocol.md#size-limit)", () => {
  test("library: the view is never looser than the line as read, in every profile", () => {
    for (const [name, text] of Object.entries(bodies)) {
      const body = enc.encode(text);
      assert.equal(body[ROBOTS_TXT_SIZE_LIMIT - 1], 0x24, "the limit falls right after the $");
      const asRead = body.subarray(0, ROBOTS_TXT_SIZE_LIMIT);
      for (const profile of PROFILES) {
        const view = crawlerView(body, ROBOTS_TXT_SIZE_LIMIT, profile);
        assert.equal(view.cut?.applied, true, `${name} ${profile}`);
        const m = compileMatcher(parseRobotsTxt(view.bytes, { profile }), "foobot");
        const read = compileMatcher(parseRobotsTxt(asRead, { profile }), "foobot");
        for (const [p, allowed] of Object.entries(expected[name]![profile])) {
          assert.equal(m.isAllowed(p), allowed, `${name} ${profile} ${p}`);
          if (!read.isAllowed(p)) assert.equal(allowed, false, `as read: ${name} ${profile} ${p}`);
        }
        const fate = cutLineFate(body, view);
        assert.equal(
          fate,
          profile === "legacy1996"
            ? `applies as read: ${JSON.stringify(name === "TIED" ? "Disallow: /$" : "Disallow:/$")}`
            : `applies as ${JSON.stringify(name === "TIED" ? "Disallow: /*" : "Disallow:/*")}, the "$" the limit left at its end read as "*"`,
        );
        const lint = lintRobotsTxt(body, { profile });
        const over = lint.diagnostics.find((d) => d.id === "file-over-limit");
        assert.ok(over?.message.includes(fate), over?.message);
      }
    }
  });

  test("CLI: robots check on a file whose limit falls after the $", async () => {
    const file = path.join(tmp, "cut.txt");
    writeFileSync(file, TIED);
    const check = await robots(["check", file, "foobot", "/"]);
    assert.equal(check.code, 1, check.stdout);
    assert.ok(check.stdout.startsWith("DISALLOWED /\n  line 4: Disallow: /*\n"), check.stdout);
    assert.match(
      check.stdout,
      /line 4, which the limit cuts, applies as "Disallow: \/\*", the "\$" the limit left at its end read as "\*"/,
    );
    const legacy = await robots(["check", file, "foobot", "/", "--profile", "legacy1996"]);
    assert.equal(legacy.code, 0, legacy.stdout);
    assert.match(legacy.stdout, /line 4, which the limit cuts, applies as read: "Disallow: \/\$"/);
    const rfc = await robots(["check", file, "foobot", "/$", "--profile", "rfc9309"]);
    assert.equal(rfc.code, 1, rfc.stdout);
  });

  test("client: a loopback server's file gives the library's verdict under each profile", async () => {
    const server = await startServer(serveText(TIED));
    try {
      for (const profile of PROFILES) {
        const client = new RobotsClient(UA, { profile });
        for (const [p, allowed] of Object.entries(expected.TIED![profile])) {
          assert.equal(await client.isAllowed(`${server.origin}${p}`), allowed, `${profile} ${p}`);
        }
        const fetched = await fetchRobotsTxt(server.origin, { userAgent: UA, profile });
        assert.ok(fetched.kind === "ok" && fetched.truncated);
        const view = crawlerView(enc.encode(TIED), ROBOTS_TXT_SIZE_LIMIT, profile);
        assert.deepEqual(fetched.body, view.bytes, profile);
      }
      await assert.rejects(
        fetchRobotsTxt(server.origin, { userAgent: UA, profile: "bing" as Profile }),
        /profile must be/,
      );
    } finally {
      await server.close();
    }
  });

  test("tester: robots serve's /api/fetch keeps the chosen profile's reading, as the page applies it", async () => {
    const server = await startServer(serveText(TIED));
    const serve = await startServe(["--allow-private"]);
    try {
      for (const profile of PROFILES) {
        const api = new URL(`/api/fetch?url=${encodeURIComponent(server.origin)}`, serve.url);
        api.searchParams.set("profile", profile);
        const res = await fetch(api);
        const answer = (await res.json()) as { kind: string; truncated: boolean; text: string };
        assert.equal(answer.kind, "ok");
        assert.equal(answer.truncated, true);
        const last = answer.text.slice(answer.text.lastIndexOf("\n") + 1);
        assert.equal(last, profile === "legacy1996" ? "Disallow: /$" : "Disallow: /*", profile);
        // The page parses the text it got under the same profile.
        const m = compileMatcher(crawlerRobots(answer.text, profile), "foobot");
        for (const [p, allowed] of Object.entries(expected.TIED![profile])) {
          assert.equal(m.isAllowed(p), allowed, `${profile} ${p}`);
        }
      }
    } finally {
      await serve.stop();
      await server.close();
    }
  });
});
