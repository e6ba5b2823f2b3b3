/**
 * What an origin costs in process, for the client's byte bound
 * (docs/protocol.md#caching; docs/fetching.md "Memory"): the body, the
 * parsed file with every part made on first read (rule and directive
 * objects, sitemaps, the groups' lists), and the compiled matcher with its
 * globs and index nodes. Estimated once per cached copy from counts the
 * parser keeps (sizeFactsOf: one pass over groups, rule rows and
 * value rows, never on the warm path), with per-item costs measured on V8
 * (node 22, pointer compression off) and rounded up.
 *
 * Measured per 500 KiB file (heap + external growth per cached origin after
 * gc, every lazy part read, 200–3,000 checks each, 16 origins per shape):
 *
 * | file shape                                   | measured | estimate |
 * | -------------------------------------------- | -------- | -------- |
 * | 13,026 one-rule groups (`User-agent: botN`)  | 10.1 MB  | see the memory test |
 * | 17,430 rules in one group                    | 4.4 MB   |          |
 * | 20,916 wildcard rules (`/*xN*.pdf$`)         | 9.3 MB   |          |
 * | 20,918 `User-agent` lines, one group         | 2.6 MB   |          |
 * | 34,859 short `Sitemap` lines, read           | 4.5 MB   |          |
 * | 65,360 short unknown directives, read        | 11.7 MB  |          |
 * | 12,453 comment lines                         | 0.6 MB   |          |
 *
 * The memory test (test/fetch-memory.test.ts) holds heap + external growth
 * of a client to 1.5 × maxBytes for each of these shapes, and
 * `npm run bench -- client` prints the estimate against the measurement for
 * real files.
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import { type RobotsTxt, ruleTableOf, sizeFactsOf } from "../parse/parse-robots-txt.js";

/** The entry's objects and strings, and the matcher's fixed part. */
const ENTRY_BYTES = 512;
const MATCHER_BYTES = 8 * 1024;
/** Per allow/disallow rule: its packed row, index entry and nodes, its Rule object and pattern string. */
const RULE_BYTES = 210;
/** Per pattern character: the table's text and the Rule's own copy. */
const PATTERN_CHAR_BYTES = 2;
/** Per rule with a `*`: its compiled glob. */
const GLOB_BYTES = 240;
/** Per group: its object, lists and its place in the selection index. */
const GROUP_BYTES = 420;
/** Per user-agent line: its object (value, token) and its place in the selection index. */
const AGENT_BYTES = 100;
/** Per other directive, once read: its object, key, name and value strings, its row. */
const DIRECTIVE_BYTES = 200;
/** Per sitemap, once read: its object, URL string and row. */
const SITEMAP_BYTES = 130;
/** Per character of an agent, directive or sitemap value: the packed text and the string made from it. */
const VALUE_CHAR_BYTES = 2;
/** Per line: the line record (one character). */
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
    const f = sizeFactsOf(robots);
    const rules = ruleTableOf(robots);
    size +=
      MATCHER_BYTES +
      RULE_BYTES * rules.count +
      PATTERN_CHAR_BYTES * rules.text.length +
      GLOB_BYTES * f.wildcardRules +
      GROUP_BYTES * robots.groups.length +
      AGENT_BYTES * f.agents +
      DIRECTIVE_BYTES * f.directives +
      SITEMAP_BYTES * f.sitemaps +
      VALUE_CHAR_BYTES * (f.agentChars + f.directiveChars + f.sitemapChars) +
      LINE_BYTES * robots.lineCount;
  }
  return size;
}
