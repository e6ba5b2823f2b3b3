/**
 * `npm run bench -- agents`: the crawler report (`robots agents`, the
 * tester page's report panel) over the whole catalogue, and the
 * `--block ai-training` check, on the corpus's five largest files (their
 * first 500 KiB, as crawlers read them). The
 * report shares one outcome among the crawlers no group names
 * (src/report/crawler-report.ts); in the same run, for scale, the plain way:
 * a matcher compiled for every crawler, its disallow rules counted. Timings are printed, never asserted.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CRAWLERS } from "../src/data/crawlers.js";
import { compileMatcher } from "../src/match/compile.js";
import { readCrawlDelay } from "../src/match/directives.js";
import { crawlerView } from "../src/parse/crawler-view.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { disallows } from "../src/protocol/empty-rule.js";
import { checkBlock, planBlock } from "../src/report/block-snippet.js";
import { reportCrawlers } from "../src/report/crawler-report.js";
import { readContentSignals } from "../src/usage/content-signals.js";
import { CORPUS_DIR } from "../test/helpers/shared.js";
import { fmtMs, median, ratioRange, row, timeRuns } from "./harness.js";

export async function run(): Promise<void> {
  const dir = path.join(CORPUS_DIR, "files");
  const files = readdirSync(dir)
    .map((f) => ({ f, size: statSync(path.join(dir, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 5);
  const plan = planBlock(["ai-training"], CRAWLERS);
  console.log(`\nagents: ${CRAWLERS.length} crawlers, median of 7 interleaved runs`);
  const widths = [44, 9, 12, 14, 10, 12];
  console.log(row(["file", "KiB", "report", "per crawler", "ratio", "--block check"], widths));
  for (const { f, size } of files) {
    const bytes = new Uint8Array(readFileSync(path.join(dir, f)));
    // As robots agents reads it: the first 500 KiB.
    const robots = parseRobotsTxt(crawlerView(bytes).bytes);
    const [shared, plain, block] = timeRuns(7, [
      () => reportCrawlers(robots, CRAWLERS, { operatorRules: false }),
      () => {
        for (const c of CRAWLERS) {
          const m = compileMatcher(robots, c.token);
          m.check("/");
          let disallowRules = 0;
          for (const i of m.groups) {
            for (const r of robots.groups[i]?.rules ?? []) {
              if (disallows(r.kind, r.pattern.length)) disallowRules++;
            }
          }
          if (disallowRules < 0) throw new Error("unreachable: keeps the count alive");
          readCrawlDelay(robots, c.token);
          readContentSignals(robots, c.token);
        }
      },
      () => checkBlock(bytes, plan, CRAWLERS),
    ]) as [number[], number[], number[]];
    console.log(
      row(
        [
          f.slice(0, 44),
          (size / 1024).toFixed(0),
          fmtMs(median(shared)),
          fmtMs(median(plain)),
          ratioRange(plain, shared),
          fmtMs(median(block)),
        ],
        widths,
      ),
    );
  }
}
