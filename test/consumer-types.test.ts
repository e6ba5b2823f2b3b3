/**
 * The published types as a user's TypeScript sees them: a small consumer
 * file, importing the package by its name through the packed tarball's
 * `exports` map, is compiled with tsc (nodenext, strict; helpers/consumer.ts).
 * It holds what the README promises: `await using client = new RobotsClient(…)`, a classifier that wraps
 * `classifyAddress`, the factories of every entry, and one `RobotsError`
 * class whichever entry it is imported from.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { withConsumerProject } from "./helpers/consumer.js";
import { DROP_IN_ENTRY, entryFiles, REPO_ROOT } from "./helpers/shared.js";

const CONSUMER = `
import { parseRobotsTxt, RobotsError, readCrawlDelay } from "robots-exclusion";
import { type AuditResult, auditLogs, RobotsError as AuditError } from "robots-exclusion/audit";
import { type CrawleeCrawler, RobotsError as CrawleeError, respectRobots } from "robots-exclusion/crawlee";
import { RobotsError as FetchError, createFetchTransport } from "robots-exclusion/fetch";
import {
  type AddressClassifier,
  classifyAddress,
  createNodeTransport,
  RobotsClient,
  RobotsError as NodeError,
} from "robots-exclusion/node";
import { combinePageRules, parseXRobotsTag, RobotsError as PageError } from "robots-exclusion/page-rules";
import { createRedisStore, RobotsError as RedisError } from "robots-exclusion/redis";

// A classifier that also keeps the crawler out of one public range.
const strict: AddressClassifier = (address) =>
  address.startsWith("203.0.113.") ? "private" : classifyAddress(address);

export async function crawl(url: string): Promise<boolean> {
  await using client = new RobotsClient("ExampleBot/1.0", {
    classifyAddress: strict,
    transport: createNodeTransport(),
  });
  return client.isAllowed(url);
}

export const sameClass: (typeof RobotsError)[] = [AuditError, CrawleeError, FetchError, NodeError, PageError, RedisError];
// Types of their own: no crawlee types are needed to compile against /crawlee.
export const wire = <C extends CrawleeCrawler>(crawler: C): C =>
  respectRobots(crawler, new RobotsClient("ExampleBot/1.0"), { turns: true });
export const delay: number | undefined = readCrawlDelay(parseRobotsTxt(""), "a");
export const index: boolean = combinePageRules(parseXRobotsTag("noindex"), "a").index;
export const transport = createFetchTransport(fetch);
export const audit = (): Promise<AuditResult> =>
  auditLogs(["access.log"], { robots: [{ body: "", since: 0, label: "robots.txt" }] });
export const store = () => createRedisStore({ url: "redis://127.0.0.1:6379" });
`;

test("a consumer compiles against the published types (await using, classifyAddress, every entry)", async () => {
  await withConsumerProject(async (project) => {
    project.write("consumer.ts", CONSUMER);
    const r = await project.typeCheck(["consumer.ts"]);
    assert.equal(r.code, 0, `tsc failed:\n${r.output}`);
  });
});

test("RobotsError is one class across the entries at run time", async () => {
  const entries = entryFiles().filter((f) => f !== DROP_IN_ENTRY);
  const classes = await Promise.all(
    entries.map(
      async (e) =>
        (
          (await import(pathToFileURL(path.join(REPO_ROOT, "dist", "src", "entries", e)).href)) as {
            RobotsError: unknown;
          }
        ).RobotsError,
    ),
  );
  for (const c of classes) assert.equal(c, classes[0]);
  assert.equal(typeof classes[0], "function");
});
