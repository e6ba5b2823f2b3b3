/**
 * What an origin costs in process, for the client's byte bound
 * (docs/protocol.md#caching; docs/fetching.md "Memory"). The client keeps
 * per origin one record (compiled-entry.ts) holding the entry's states, the
 * body packed (packed-body.ts) and the rules that apply to its product
 * token, compiled alone (src/match/alone.ts): the compact matcher
 * (src/match/compact.ts) for few rules, the trie matcher otherwise.
 * Everything else of the file is rebuilt on demand and not kept. The
 * charge is made once per cached copy, when it is compiled, and counts
 * what checks may still build: for the trie matcher every trie node of
 * the rules, every glob compiled with one segment per `*`, every rule
 * object an explanation makes (the compact matcher builds nothing).
 * Per-item costs are measured on V8 (node 22, pointer compression off) and
 * rounded up; test/fetch-memory-*.test.ts hold a client's real growth to
 * 1.5 × maxBytes for every costly file shape, and
 * docs/performance-decisions.md records the figures.
 */

import type { CachedEntry } from "../cache/entry-codec.js";
import type { AloneFacts } from "../match/alone.js";
import type { CompactMatcher } from "../match/compact.js";

/** The record with its two timestamps, its key's header and its share of the cache's Map. */
const ENTRY_BYTES = 384;
/** The trie matcher's fixed part: the matcher, its index, table and build state. */
const TRIE_BYTES = 704;
/**
 * Per applied rule: its packed row, its index entry and key records, its
 * share of trie nodes once built, and the rule object an explanation makes.
 */
const RULE_BYTES = 200;
/** Per pattern character: the table's text, trie labels and the rule object's strings. */
const PATTERN_CHAR_BYTES = 4;
/** Per rule with a `*`: its compiled glob. */
const GLOB_BYTES = 64;
/** Per `*`: the segment string it starts in a compiled glob, and its list slot. */
const STAR_BYTES = 32;
/** The compact matcher's object and its two strings' headers and padding. */
const COMPACT_BYTES = 160;
/** Per value written differently from its pattern: the string's header and list slot. */
const WRITTEN_BYTES = 40;

/** Estimated bytes of a trie matcher compiled alone (src/match/alone.ts) with `facts`. */
export function matcherSize(facts: AloneFacts): number {
  return (
    TRIE_BYTES +
    RULE_BYTES * facts.rules +
    PATTERN_CHAR_BYTES * facts.chars +
    GLOB_BYTES * facts.globs +
    STAR_BYTES * facts.stars
  );
}

/** Estimated bytes of a compact matcher: it builds nothing after it is made. */
export function compactSize(matcher: CompactMatcher): number {
  const kept = matcher.kept;
  return COMPACT_BYTES + kept.text + 2 * kept.meta + WRITTEN_BYTES * kept.values + 2 * kept.written;
}

/** Estimated bytes of a compiled entry with `entry`'s states, `matcherBytes` and the body `packed`. */
export function retainedSize(
  entry: CachedEntry,
  matcherBytes: number,
  packed: string | null,
): number {
  let size = ENTRY_BYTES + entry.origin.length * 2 + matcherBytes;
  const good = entry.good;
  if (good !== null) for (const r of good.redirects) size += 32 + r.length * 2;
  if (entry.error !== null) size += 128 + entry.error.message.length * 2;
  if (packed !== null) size += 24 + packed.length;
  return size;
}
