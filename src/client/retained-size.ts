/**
 * What an origin costs in process, for the client's byte bound (docs/protocol.md#access-method
 * "Caching"; docs/fetching.md "Memory"): the body, the parsed file and the
 * compiled matcher, estimated from public facts of the parsed file (its
 * rules, groups and lines), with the per-item costs measured on V8 and
 * rounded up:
 *
 * | file (500 KiB unless said)        | heap + external per file | estimate |
 * | --------------------------------- | ------------------------ | -------- |
 * | 13,029 one-rule groups            | 6.34 MB                  | 6.95 MB  |
 * | 22,316 minimal groups (`Allow:/`) | 10.32 MB                 | 11.56 MB |
 * | 19,372 rules in one group         | 3.73 MB                  | 4.24 MB  |
 * | 46,660 short rules (`Allow:/k`)   | 8.62 MB                  | 9.48 MB  |
 * | 8,412 comment lines               | 0.52 MB                  | 0.54 MB  |
 * | 3 rules (81 bytes)                | 7.8 KB                   | 9.2 KB   |
 *
 * (parse + compile + 200 checks each, after gc; re-measured by the memory
 * test, test/fetch-memory.test.ts, which holds heap + external growth of a
 * client to 1.5 × maxBytes.)
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";

/** The entry's objects and strings, and the matcher's fixed part. */
const ENTRY_BYTES = 512;
const MATCHER_BYTES = 8 * 1024;
/** Per allow/disallow rule: its packed row, pattern string and index nodes (measured 124–174). */
const RULE_BYTES = 190;
/** Per group: its object, agent list and selection index (measured ~281 with its agent line). */
const GROUP_BYTES = 300;
/** Per line: the line record (measured ~1). */
const LINE_BYTES = 2;

export function retainedSize(entry: CachedEntry, robots: RobotsTxt | null): number {
  let size = ENTRY_BYTES + entry.origin.length * 2;
  const good = entry.good;
  if (good !== null) {
    size += good.body.byteLength;
    for (const r of good.redirects) size += r.length * 2;
  }
  if (entry.error !== null) size += 128 + entry.error.message.length * 2;
  if (robots !== null) {
    size +=
      MATCHER_BYTES +
      RULE_BYTES * robots.ruleTable.count +
      GROUP_BYTES * robots.groups.length +
      LINE_BYTES * robots.lineCount;
  }
  return size;
}
