/**
 * What an origin costs in process, for the client's byte bound
 * (docs/protocol.md#caching; docs/fetching.md "Memory"). The client keeps
 * per origin its entry's states, the body packed (packed-body.ts) and the
 * rules that apply to its product token, compiled alone
 * (src/match/alone.ts); everything else of the file is rebuilt on demand
 * and not kept. The charge is made once per cached copy, when it is
 * compiled, and counts what checks may still build: every trie node of
 * the rules, every glob compiled with one segment per `*`, every rule
 * object an explanation makes. Per-item costs are measured on V8 (node 22,
 * pointer compression off) and rounded up; test/fetch-memory.test.ts holds
 * a client's real growth to 1.5 × maxBytes for every costly file shape,
 * and docs/performance-decisions.md records the figures.
 */

import type { CachedEntry } from "../cache/entry-codec.js";
import type { AloneFacts } from "../match/alone.js";

/** The entry's objects and strings, its cache slot and the matcher's fixed part. */
const ENTRY_BYTES = 1024;
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

/** Estimated bytes of a matcher compiled alone (src/match/alone.ts) with `facts`. */
export function matcherSize(facts: AloneFacts): number {
  return (
    RULE_BYTES * facts.rules +
    PATTERN_CHAR_BYTES * facts.chars +
    GLOB_BYTES * facts.globs +
    STAR_BYTES * facts.stars
  );
}

/** What a compiled cache entry (compiled-entry.ts) keeps that its charge counts. */
export interface ChargedParts {
  readonly entry: CachedEntry;
  readonly matcherBytes: number;
  readonly packed: string | null;
}

/** Estimated bytes `compiled` retains. */
export function retainedSize(compiled: ChargedParts): number {
  const entry = compiled.entry;
  let size = ENTRY_BYTES + entry.origin.length * 2 + compiled.matcherBytes;
  const good = entry.good;
  if (good !== null) for (const r of good.redirects) size += 32 + r.length * 2;
  if (entry.error !== null) size += 128 + entry.error.message.length * 2;
  if (compiled.packed !== null) size += 24 + compiled.packed.length;
  return size;
}
