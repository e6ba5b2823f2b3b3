/**
 * docs/protocol.md#access-method scenarios through the library client, against real servers on
 * 127.0.0.1 (one origin per scenario). The same scenarios run through the CLI
 * in fetch-cli.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RobotsClient } from "../src/entries/node.js";
import { SCENARIOS } from "./helpers/fetch-scenarios.js";

/**
 * Timeouts are options, not assertions. The scenarios that end in one wait
 * for it, so theirs are short; the others answer at once and get time to
 * do so on a loaded machine (a 6-request redirect chain took over 3 s at
 * load 20).
 */
const TEST_TIMEOUTS = { connectTimeoutMs: 5000, totalTimeoutMs: 10_000 } as const;
const TIMEOUT_SCENARIO_TIMEOUTS = { connectTimeoutMs: 250, totalTimeoutMs: 500 } as const;

describe("protocol.md#access-method: scenarios (library client)", { concurrency: 4 }, () => {
  for (const sc of SCENARIOS) {
    it(sc.name, { timeout: 20_000 }, async () => {
      const servers = await sc.start();
      try {
        const origin = servers[0]!.origin;
        const client = new RobotsClient(
          "OtherBot/1.0 (+http://127.0.0.1/bot)",
          sc.reason === "timeout" ? TIMEOUT_SCENARIO_TIMEOUTS : TEST_TIMEOUTS,
        );
        for (const c of sc.checks) {
          const r = await client.check(`${origin}${c.path}`);
          assert.equal(r.allowed, c.allowed, `${c.path}: allowed`);
          assert.equal(r.line, c.line, `${c.path}: deciding line`);
          assert.equal(r.source.basis, sc.basis, `${c.path}: basis`);
          assert.equal(
            await client.isAllowed(`${origin}${c.path}`),
            c.allowed,
            "isAllowed = check",
          );
        }
        const r = await client.check(`${origin}/`);
        assert.equal(r.source.origin, origin);
        assert.equal(r.source.robotsUrl, `${origin}/robots.txt`);
        if (sc.status !== undefined) {
          const status = r.source.serverError?.status ?? r.source.status;
          assert.equal(status, sc.status, "status");
        }
        if (sc.reason !== undefined) {
          assert.ok(r.source.serverError, "server-error state is visible");
          assert.equal(r.source.serverError.reason, sc.reason);
          assert.equal(r.source.serverError.attempts, 1, "one fetch, retried later, not per check");
          assert.equal(r.source.freshness, "none");
        } else {
          assert.equal(r.source.serverError, null);
        }
        if (sc.truncated !== undefined) assert.equal(r.source.truncated, sc.truncated, "truncated");
        if (sc.redirects !== undefined) assert.equal(r.source.redirects.length, sc.redirects);
        if (sc.hits !== undefined) assert.equal(servers[0]!.hits(), sc.hits, "requests made");
        assert.equal(client.stats.fetches, 1, "every check after the first used the cache");
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    });
  }
});
