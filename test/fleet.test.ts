/**
 * A crawler fleet on a real redis-server (docs/fleet.md): several worker
 * processes, each a RobotsClient over the Redis store, against counting
 * loopback sites. One robots.txt fetch per origin for the whole fleet; every
 * verdict right while Redis is killed with SIGKILL mid-run; sharing resumes
 * after a restart; concurrent failures keep an exact attempt count. No
 * timing is asserted: only counts and verdicts. The spacing of the fleet's
 * page requests, read from a site's log, is test/serial/fleet-gaps.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { configureFleet, startFleet, stopFleet, type Worker } from "./helpers/fleet.js";
import {
  assertVerdicts,
  type Checked,
  startSite,
  startSites,
  urlsOf,
} from "./helpers/fleet-sites.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

let redis: RedisServer;
let prefixes = 0;
/** The file's worker processes, started once; each test configures the ones it uses. */
let workers: Worker[] = [];
before(async () => {
  redis = await startRedis();
  workers = await startFleet(4, { redisUrl: redis.url, prefix: "unused:" });
});
after(async () => {
  await stopFleet(workers);
  await redis.stop();
});

/** `n` of the file's processes, each with a new client and store on `config` and a prefix of its own. */
async function fleetOf(n: number, config: Record<string, unknown> = {}): Promise<Worker[]> {
  const fleet = workers.slice(0, n);
  await configureFleet(fleet, { redisUrl: redis.url, prefix: `f${prefixes++}:`, ...config });
  return fleet;
}

describe("a fleet of crawler processes sharing Redis", () => {
  it("4 processes, 24 origins: one robots.txt fetch per origin, every verdict right", async () => {
    const sites = await startSites(24);
    const fleet = await fleetOf(4);
    try {
      // Every process checks every URL at once: all race for every origin.
      const answers = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(sites) })),
      );
      assertVerdicts(sites, answers, "fleet");
      for (const s of sites) assert.equal(s.robotsHits, 1, `${s.origin} fetched once by the fleet`);
      const stats = await Promise.all(
        fleet.map((w) => w.ask<{ client: { fetches: number } }>({ op: "stats" })),
      );
      assert.equal(
        stats.reduce((sum, s) => sum + s.client.fetches, 0),
        sites.length,
        "the processes' fetch counts add up to one per origin",
      );
    } finally {
      await Promise.all(sites.map((s) => s.close()));
    }
  });

  it("Redis killed with SIGKILL mid-run: every verdict right, degraded state shown; after a restart sharing resumes", async () => {
    const phaseA = await startSites(32);
    const phaseB = await startSites(12);
    const fleet = await fleetOf(3);
    let restarted = false;
    try {
      // Phase A: the processes work through the origins in batches; Redis
      // dies after the first batch and stays down for the rest.
      const batches = [phaseA.slice(0, 8), phaseA.slice(8, 20), phaseA.slice(20)];
      const answers: Checked[] = [];
      for (const [i, batch] of batches.entries()) {
        if (i === 1) await redis.kill9();
        answers.push(
          ...(await Promise.all(
            fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(batch) })),
          )),
        );
      }
      assertVerdicts(phaseA, answers, "through the outage");
      const during = answers.slice(3).flatMap((a) => a.results);
      assert.ok(
        during.some((r) => r.storeProblem !== null),
        "checks made while Redis was down show the store problem in source",
      );
      // Origins loaded before the kill were shared: one fetch each.
      for (const s of batches[0]!) assert.equal(s.robotsHits, 1, s.origin);
      // While Redis was down each process fetched for itself, at most once per origin.
      for (const s of [...batches[1]!, ...batches[2]!]) {
        assert.ok(
          s.robotsHits >= 1 && s.robotsHits <= fleet.length,
          `${s.origin}: ${s.robotsHits}`,
        );
      }
      const down = await Promise.all(
        fleet.map((w) =>
          w.ask<{ state: string; events: string[]; client: { storeErrors: number } }>({
            op: "stats",
          }),
        ),
      );
      for (const d of down) {
        assert.equal(d.state, "degraded");
        assert.deepEqual(d.events, ["degraded"]);
        assert.ok(d.client.storeErrors > 0);
      }

      await redis.restart();
      restarted = true;
      // Each process waits until its store answers again (bounded), then phase B.
      await Promise.all(fleet.map((w) => w.ask({ op: "sync" })));
      const answersB = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(phaseB) })),
      );
      assertVerdicts(phaseB, answersB, "after the restart");
      for (const s of phaseB) assert.equal(s.robotsHits, 1, `${s.origin}: shared again`);
      const up = await Promise.all(
        fleet.map((w) => w.ask<{ state: string; events: string[] }>({ op: "stats" })),
      );
      for (const u of up) {
        assert.equal(u.state, "ok");
        assert.deepEqual(u.events, ["degraded", "recovered"]);
      }
    } finally {
      if (!restarted) await redis.restart();
      await Promise.all([...phaseA, ...phaseB].map((s) => s.close()));
    }
  });

  it("concurrent failures from 4 processes keep an exact attempt count and the first since", async () => {
    const site = await startSite("failing");
    // No lease: every process fetches on its own, so failures really race;
    // retries are due after 1 ms, so each check fetches again.
    const fleet = await fleetOf(4, {
      noLease: true,
      clientOptions: { retryMs: 1, minRetryMs: 1, maxRetryMs: 1 },
    });
    try {
      const url = `${site.origin}/private/page`;
      const rounds = Array.from({ length: 10 }, () => url);
      const answers = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: rounds })),
      );
      for (const a of answers) for (const r of a.results) assert.equal(r.allowed, false);
      // One more look, after every process is done: the attempts in Redis.
      const last = await fleet[0]!.ask<Checked & { results: { attempts: number | null }[] }>({
        op: "check",
        urls: [url],
      });
      const final = last.results[0]!;
      // The precondition of an exact count: every store call answered in
      // time with a valid entry (a failing call is skipped by design, see
      // docs/fleet.md "Failure modes"). So a count below the site's is a lost attempt.
      const stats = await Promise.all(
        fleet.map((w) => w.ask<{ client: { storeErrors: number } }>({ op: "stats" })),
      );
      assert.deepEqual(
        stats.map((s) => s.client.storeErrors),
        fleet.map(() => 0),
        "no store call failed, timed out or met an invalid entry",
      );
      // The last check fetched once more (the retry was due), so it counts too.
      assert.equal(final.attempts, site.robotsHits, "every failed fetch of every process counted");
      assert.ok(site.robotsHits > 10, `the processes raced: ${site.robotsHits} fetches`);
      const sinces = new Set(
        [...answers, last].flatMap((a) => a.results.map((r) => r.since)).filter((s) => s !== null),
      );
      assert.equal(sinces.size, 1, `since never reset: ${[...sinces].join(", ")}`);
    } finally {
      await site.close();
    }
  });
});
