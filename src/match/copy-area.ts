/**
 * The copy area: one array holding copies of the trie words of the indexes
 * that checks use, each copy's words together, copies one after another in
 * the order they were made. A matcher whose index has a copy here walks the
 * copy (decideIn with `d` the area): its check reads the matcher, then the
 * node, where walking the index's own array reads the array object first,
 * then its elements, each in its own place in memory. And the indexes that
 * checks use one after another lie side by side here, where V8 puts their
 * own arrays wherever its collector moves them.
 *
 * Measured on the bench's corpus checks, in-process paired runs (both
 * orders) against walking the indexes' own arrays: 23–26 % less time per
 * check (see docs/benchmarks.md, "Session 22").
 *
 * A copy is a cache, never the only home of anything: the index keeps its
 * own array (RuleIndex#d), and a check whose copy is gone walks that. So the
 * area can be emptied at any time, and it holds at most `limit` words.
 * A check without a copy makes one after its walk (so copies lie in the
 * order checks used them); when one does not fit, the area is emptied, a
 * new generation starts, and matchers copy again as their checks come.
 * When the indexes in use do not fit, emptying and filling again on every
 * round of them would copy an index for each check: the area is emptied
 * only once the checks without a copy since it was last emptied number at
 * least one per FLUSH_WORDS words it holds, so that copying costs at most
 * that many words per such check on average. Until then a matcher whose
 * copy does not fit walks its index's own array, as with no area at all.
 */
import { RobotsError } from "../errors.js";
import type { RuleIndex } from "./rule-index.js";

/** The default limit: 2^21 words (16 MiB of elements on 64-bit Node, half that with compressed pointers). */
export const DEFAULT_COPY_AREA_WORDS = 2 ** 21;

/** The largest limit setMatchCacheLimit accepts. */
const MAX_LIMIT = 2 ** 28;

/**
 * The words of every copy. Kept "packed" (grown only by appending), so
 * that it has the same shape as an index's own array and decideIn sees one
 * kind of array.
 */
export const area: number[] = [];

/**
 * The current generation; a copy made under an earlier one is gone. Starts
 * at 1, so that 0 can mean "no copy" in a matcher.
 */
export let generation = 1;

/** Words of the area in use in this generation. */
let used = 0;
let limit = DEFAULT_COPY_AREA_WORDS;
/** Generations ended because the area was full. */
let flushes = 0;
/** Checks that found no copy (noCopyCheck) since the area was last emptied. */
let uncopied = 0;
/** See the module's comment: words copied per check without a copy, at most, when the area thrashes. */
const FLUSH_WORDS = 16;

/** The `base` of a matcher without a copy. */
export const NO_COPY = -(2 ** 30);

/**
 * A copy is made again once its index has grown since (walks of the copy
 * meet the new nodes still pending and go on in the index's own array):
 * at once for a copy of up to REGROW_ANY words, else once the index has
 * grown by a quarter of the words copied, so that the words copied for
 * one index add up to a few times its final size however many nodes its
 * checks build one by one. The bench's corpus checks copy 18,386 indexes:
 * 52 words at the median, 158 at the 90th percentile, 5,387 at most.
 */
const REGROW_ANY = 256;
const REGROW_SHIFT = 2;

/** Count a check that walked its index's own array (see FLUSH_WORDS). */
export function noCopyCheck(): void {
  uncopied++;
}

/**
 * The base of `ix`'s copy in the area (word `o` of `ix.d` is
 * `area[base + o]`), making the copy if `ix` has none in this generation
 * or it is too far behind; NO_COPY when the index does not fit: more than a
 * sixteenth of the limit, so that no one index can fill the area.
 */
export function copyOf(ix: RuleIndex): number {
  const d = ix.d;
  const root = ix.root;
  const n = d.length;
  const len = n - root;
  let at = used;
  if (ix.copyGen === generation) {
    const copied = ix.copyEnd - root;
    const grown = n - ix.copyEnd;
    if (grown === 0 || (copied > REGROW_ANY && grown <= copied >> REGROW_SHIFT)) {
      return ix.copyAt - root;
    }
    // The last copy made: made again in its place.
    if (ix.copyAt + copied === used) at = ix.copyAt;
  }
  if (len > limit >> 4) return NO_COPY;
  if (at + len > limit) {
    if (uncopied * FLUSH_WORDS < used) {
      // Not emptied yet: the copy this index has, if any, behind as it is.
      return ix.copyGen === generation ? ix.copyAt - root : NO_COPY;
    }
    generation++;
    flushes++;
    uncopied = 0;
    at = 0;
  }
  let k = 0;
  // In place up to the area's length, then appended.
  for (const inPlace = Math.min(len, area.length - at); k < inPlace; k++)
    area[at + k] = d[root + k]!;
  for (; k < len; k++) area.push(d[root + k]!);
  used = at + len;
  ix.copyGen = generation;
  ix.copyAt = at;
  ix.copyEnd = n;
  return at - root;
}

/** What the copy area holds, for diagnostics and the bench. */
export interface MatchCacheStats {
  /** Words in use in the current generation. */
  readonly words: number;
  /** Words the area has grown to (its length; it never holds more than `limit`). */
  readonly length: number;
  readonly limit: number;
  /** How many times the area was full and emptied. */
  readonly flushes: number;
}

export function matchCacheStats(): MatchCacheStats {
  return { words: used, length: area.length, limit, flushes };
}

/**
 * Set how many words the shared copy area of compiled matchers may hold
 * (default 2^21: 16 MiB on 64-bit Node). 0 turns it off: checks then walk
 * each index's own array, about a quarter slower when the indexes are cold.
 * Lowering the limit empties the area. Verdicts never depend on it.
 */
export function setMatchCacheLimit(words: number): void {
  if (!Number.isInteger(words) || words < 0 || words > MAX_LIMIT) {
    throw new RobotsError(
      "invalid-option",
      `match cache limit must be an integer number of words from 0 to ${MAX_LIMIT}, got ${String(words)}`,
    );
  }
  if (words < area.length) {
    area.length = words;
    generation++;
    used = 0;
    uncopied = 0;
  }
  limit = words;
}
