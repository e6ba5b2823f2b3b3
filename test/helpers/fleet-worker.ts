/**
 * One crawler process of a fleet, for test/fleet.test.ts and the fleet
 * bench: a RobotsClient over the Redis store, driven by JSON commands on
 * stdin (one per line), answering JSON lines on stdout. Running real
 * processes (not clients in one process) is the point: nothing is shared
 * but Redis and the sites.
 *
 * Commands:
 *   {"op":"check","urls":[...]}           → {"op":"checked","results":[{url,allowed,storeProblem,since}]}
 *   {"op":"crawl","url":u,"pages":n}      → waitForTurn + GET per page → {"op":"crawled","statuses":[...]}
 *   {"op":"loops","url":u,"loops":k,"pages":n,"workMs":w}
 *                                         → k concurrent crawl loops (waitForTurn, GET, reportResponse,
 *                                           then, in even loops, w ms of synchronous page work)
 *                                           → {"op":"looped","reports":[...]}
 *   {"op":"sync","origins":[...]}         → waits until the store takes a write for each origin
 *                                           (each slot's master, in a cluster) → {"op":"synced"}
 *   {"op":"stats"}                        → {"op":"stats","client":…,"store":…,"events":…,"reasons":…,"nodes":…,"state":…}
 *   {"op":"configure","config":{…}}       → closes the client and store, starts new ones with this
 *                                           configuration (as at the start) → {"op":"configured"}
 *   {"op":"exit"}
 */
import * as http from "node:http";
import { createInterface } from "node:readline";
import { createNodeTransport, RobotsClient, type RobotsStore } from "../../src/entries/node.js";
import { createRedisStore } from "../../src/entries/redis.js";
import { loopbackLookup } from "./fetch-servers.js";

// node --test runs every file under dist/test: without its configuration
// (only test/helpers/fleet.ts starts it with one) this file does nothing.
if (process.env.FLEET_WORKER === undefined) process.exit(0);

interface Config {
  redisUrl?: string;
  /** Redis Cluster root nodes instead of `redisUrl`. */
  cluster?: { url: string }[];
  prefix: string;
  /** Hide the lease (and turns) from the client: every process fetches on its own. */
  noLease?: boolean;
  clientOptions?: Record<string, number>;
  /** Bound on Redis calls (store and client), default 5000 ms. */
  storeTimeoutMs?: number;
  /** Every host name resolves to 127.0.0.1 (the bench's 1,000 origins on one port). */
  loopbackLookup?: boolean;
  /** "none": no shared store at all (each process on its own), for the bench's comparison. */
  store?: "redis" | "none";
}

/** A store and a client over it, and what the store said (its events, in order). */
function crawler(config: Config) {
  const store = createRedisStore({
    ...(config.cluster === undefined
      ? { url: config.redisUrl ?? "" }
      : { cluster: { rootNodes: config.cluster } }),
    prefix: config.prefix,
    // Generous on a loaded machine (a slow answer must not pass for an
    // outage); a killed Redis refuses at once anyway.
    timeoutMs: config.storeTimeoutMs ?? 5000,
    retryMs: 200,
  });
  const events: string[] = [];
  const reasons: string[] = [];
  /** The node of each event, in the order of `events`. */
  const nodes: string[] = [];
  store.on("degraded", (reason: string, _error: unknown, node: string) => {
    events.push("degraded");
    reasons.push(reason);
    nodes.push(node);
  });
  store.on("recovered", (node: string) => {
    events.push("recovered");
    nodes.push(node);
  });
  const shared: RobotsStore = config.noLease
    ? ({
        get: (o) => store.get(o),
        set: (o, e) => store.set(o, e),
        delete: (o) => store.delete(o),
        update: (o: string, f: Parameters<typeof store.update>[1]) => store.update(o, f),
      } as RobotsStore)
    : store;
  const client = new RobotsClient("FleetBot/1.0 (+http://127.0.0.1/bot)", {
    ...(config.store === "none" ? {} : { store: shared }),
    ...(config.loopbackLookup
      ? { transport: createNodeTransport({ lookup: loopbackLookup }) }
      : {}),
    // Generous on a loaded machine: a dead Redis refuses at once anyway.
    storeTimeoutMs: config.storeTimeoutMs ?? 5000,
    ...(config.clientOptions ?? {}),
  });
  return { store, client, events, reasons, nodes };
}

/**
 * The process's crawler: the one of the start's configuration, replaced by
 * each "configure" (a test of its own on a worker another test used).
 */
let current = crawler(JSON.parse(process.env.FLEET_WORKER) as Config);

/** One GET with node:http (no client of its own to warm up: its first request is not slower). */
function get(
  url: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "user-agent": current.client.userAgent, ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      })
      .on("error", reject);
  });
}

function send(msg: unknown): void {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
}

async function handle(cmd: {
  op: string;
  urls?: string[];
  origins?: string[];
  url?: string;
  pages?: number;
  warm?: number;
  loops?: number;
  workMs?: number;
  config?: Config;
}) {
  const { store, client, events, reasons, nodes } = current;
  switch (cmd.op) {
    case "configure": {
      await client.close();
      await store.close();
      current = crawler(cmd.config!);
      send({ op: "configured" });
      return;
    }
    case "bench": {
      // Cold: every origin loaded once, 32 at a time. Warm: `warm` checks
      // awaited one by one over the same URLs, timed, with the Redis
      // commands they sent counted.
      const urls = cmd.urls ?? [];
      const t0 = performance.now();
      for (let i = 0; i < urls.length; i += 32) {
        await Promise.all(urls.slice(i, i + 32).map((u) => client.isAllowed(u)));
      }
      const coldMs = performance.now() - t0;
      const commands = store.stats.commands;
      let allowed = 0;
      const t1 = performance.now();
      for (let i = 0; i < (cmd.warm ?? 0); i++) {
        if (await client.isAllowed(urls[i % urls.length]!)) allowed++;
      }
      const warmMs = performance.now() - t1;
      send({
        op: "benched",
        coldMs,
        warmMs,
        warmChecks: cmd.warm ?? 0,
        allowed,
        warmCommands: store.stats.commands - commands,
        coldCommands: commands,
        fetches: client.stats.fetches,
        client: client.stats,
        store: store.stats,
      });
      return;
    }
    case "check": {
      const results = [];
      for (const url of cmd.urls ?? []) {
        const r = await client.check(url);
        results.push({
          url,
          allowed: r.allowed,
          storeProblem: r.source.storeProblem?.kind ?? null,
          since: r.source.serverError?.since ?? null,
          attempts: r.source.serverError?.attempts ?? null,
        });
      }
      send({ op: "checked", results });
      return;
    }
    case "crawl": {
      const statuses: number[] = [];
      const turns: unknown[] = [];
      for (let i = 0; i < (cmd.pages ?? 1); i++) {
        turns.push(await client.waitForTurn(cmd.url!));
        const res = await get(cmd.url!);
        statuses.push(res.status);
        await client.reportResponse(cmd.url!, res.status, res.headers);
      }
      send({ op: "crawled", statuses, turns });
      return;
    }
    case "loops": {
      const reports = await crawlLoops(cmd.url!, cmd.loops ?? 1, cmd.pages ?? 1, cmd.workMs ?? 0);
      send({ op: "looped", reports });
      return;
    }
    case "sync": {
      // A write (the release of a lease nobody holds changes nothing) on
      // every origin's slot: it also recovers a store degraded by writes.
      const deadline = Date.now() + 20_000;
      for (const origin of cmd.origins ?? ["http://sync.invalid"]) {
        for (;;) {
          try {
            await store.releaseLease(origin, "sync");
            break;
          } catch (err) {
            if (Date.now() > deadline) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }
      send({ op: "synced", state: store.state });
      return;
    }
    case "stats":
      send({
        op: "stats",
        client: client.stats,
        store: store.stats,
        events,
        reasons,
        nodes,
        state: store.state,
      });
      return;
    case "exit":
      await store.close();
      process.exit(0);
  }
}

/**
 * `loops` concurrent crawl loops on `url`'s origin: waitForTurn, GET,
 * reportResponse, then in every other loop `workMs` of synchronous work (a
 * page handler that holds the event loop, so other loops' turns wake late). Returns, for
 * each pause a report set, when the report started and ended.
 */
async function crawlLoops(url: string, loops: number, pages: number, workMs: number) {
  const { client } = current;
  const reports: { start: number; end: number; pauseMs: number }[] = [];
  const loop = async (l: number) => {
    for (let p = 0; p < pages; p++) {
      const page = new URL(`/l${l}/p${p}`, url).href;
      await client.waitForTurn(page);
      // When the turn was handed out, for the site's log.
      const res = await get(page, { "x-granted": String(Date.now()) });
      const start = Date.now();
      const pauseMs = await client.reportResponse(page, res.status, res.headers);
      if (pauseMs > 0) reports.push({ start, end: Date.now(), pauseMs });
      const until = Date.now() + (l % 2 === 0 ? workMs : 0);
      while (Date.now() < until) {
        // The page handler's work: nothing else runs meanwhile.
      }
    }
  };
  await Promise.all(Array.from({ length: loops }, (_, l) => loop(l)));
  return reports;
}

let queue = Promise.resolve();
const input = createInterface({ input: process.stdin });
// The parent went away (or closed the pipe): nothing more will come.
input.on("close", () => {
  void queue.then(() => current.store.close()).then(() => process.exit(0));
});
input.on("line", (line) => {
  queue = queue.then(() =>
    handle(JSON.parse(line)).catch((err: unknown) => {
      send({ op: "error", message: err instanceof Error ? err.stack : String(err) });
    }),
  );
});
send({ op: "ready", pid: process.pid });
