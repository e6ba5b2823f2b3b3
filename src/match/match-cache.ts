/**
 * A match cache: one array holding copies of the trie words of the indexes
 * that checks use, copies one after another in the order they were made.
 * A matcher compiled with a cache (`compileMatcher(robots, agent, { cache })`)
 * walks its index's copy there; a matcher without one walks its index's own
 * array. Why: a check of a matcher not used for a while misses the CPU cache
 * on every object it reads; a copy is read as the matcher's node words
 * directly, and the indexes checked one after another lie side by side.
 * Re-measured by `npm run bench -- core` ("corpus checks", which passes a
 * cache, against "same, no match cache"); the figure is in
 * docs/performance-decisions.md, Checking: match cache.
 *
 * The cache has one owner, who sizes it and releases it: nothing here is
 * module state. It is never the only home of anything (the index keeps its
 * own array), so it can be emptied at any time and verdicts never depend on
 * it. A check without a copy makes one after its walk; when one does not
 * fit, the cache is emptied, a new generation starts and matchers copy
 * again as their checks come. When the indexes in use do not fit, emptying
 * and filling on every round of them would copy an index per check: the
 * cache is emptied only once the checks without a copy since it was last
 * emptied number at least one per FLUSH_WORDS words it holds.
 */
import { RobotsError } from "../errors.js";

/** What a MatchCache reads and writes of an index it copies; RuleIndex (rule-index.ts) implements it. */
export interface CopiedIndex {
  /** The index's words; the copy is of those from `root` on. */
  readonly words: readonly number[];
  /** The root's offset in `words`. */
  readonly root: number;
  /** The copies holding its copy, or null. */
  copyCache: CopyArea | null;
  /** The cache's generation the copy was made in (0: none). */
  copyGen: number;
  /** Where the copy starts in the cache's area. */
  copyAt: number;
  /** `words.length` when the copy was made. */
  copyEnd: number;
}

/** The default limit: 2^21 words (16 MiB of elements on 64-bit Node, half that with compressed pointers). */
export const DEFAULT_MATCH_CACHE_WORDS = 2 ** 21;

/** The largest limit a MatchCache accepts. */
const MAX_WORDS = 2 ** 28;

/** See the module's comment: words copied per check without a copy, at most, when the cache thrashes. */
const FLUSH_WORDS = 16;

/** RobotsMatcher's `base` when it has no copy. */
export const NO_COPY = -(2 ** 30);

/**
 * A copy is made again once its index has grown since (walks of the copy
 * meet the new nodes still pending and go on in the index's own array):
 * at once for a copy of up to REGROW_ANY words, else once the index has
 * grown by a quarter of the words copied, so that the words copied for one
 * index add up to a few times its final size.
 */
const REGROW_ANY = 256;
const REGROW_SHIFT = 2;

/** What a match cache holds, for diagnostics and the bench. */
export interface MatchCacheStats {
  /** Words in use in the current generation. */
  readonly words: number;
  /** Words the cache's array has grown to (never more than `limit`). */
  readonly length: number;
  /** Words the cache may hold before it starts over. */
  readonly limit: number;
  /** How many times the cache was full and emptied. */
  readonly flushes: number;
}

/** Options of a MatchCache. */
export interface MatchCacheOptions {
  /** Words the cache may hold, an integer from 0 to 2^28 (default 2^21: 16 MiB on 64-bit Node). */
  readonly words?: number;
}

/** The reach of copyAreaOf into a MatchCache, set once by the class's static block. */
let areaOf: (cache: MatchCache) => CopyArea;

/**
 * Copies of compiled indexes that the matchers given this cache walk.
 * Create one per crawler (or per client), sized to its memory budget; call
 * `clear()` to release what it holds.
 */
export class MatchCache {
  static {
    areaOf = (cache) => cache.#area;
  }
  /** The most words it holds. */
  readonly limit: number;
  /** The copies; what matchers read (copyAreaOf). */
  readonly #area: CopyArea;

  constructor(options: MatchCacheOptions = {}) {
    const words = options.words ?? DEFAULT_MATCH_CACHE_WORDS;
    if (!Number.isInteger(words) || words < 0 || words > MAX_WORDS) {
      throw new RobotsError(
        "invalid-option",
        `MatchCache words must be an integer from 0 to ${MAX_WORDS}, got ${String(words)}`,
      );
    }
    this.limit = words;
    this.#area = new CopyArea(words);
  }

  /** Empty the cache and release its array; matchers copy again as their checks come. */
  clear(): void {
    this.#area.clear();
  }

  /** Its size and how often it started over. */
  stats(): MatchCacheStats {
    return this.#area.stats();
  }
}

/**
 * The copies a MatchCache holds, which the matchers compiled with it read
 * on every check (trie/trie-matcher.ts); not public, so the published
 * MatchCache is exactly its public surface.
 */
export function copyAreaOf(cache: MatchCache): CopyArea {
  return areaOf(cache);
}

/** A match cache's copies and their bookkeeping (see the module's comment). */
export class CopyArea {
  /** The most words it holds. */
  readonly limit: number;
  /**
   * The words of every copy. Kept "packed" (grown only by appending), so
   * that it has the same shape as an index's own array and the walk sees
   * one kind of array.
   */
  area: number[] = [];
  /**
   * The current generation; a copy made under an earlier one is gone.
   * Starts at 1, so that 0 can mean "no copy" in a matcher.
   */
  generation = 1;
  #used = 0;
  #flushes = 0;
  /** Checks that found no copy (noCopyCheck) since the cache was last emptied. */
  #uncopied = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Empty the copies and release their array. */
  clear(): void {
    this.area = [];
    this.generation++;
    this.#used = 0;
    this.#uncopied = 0;
  }

  /** Its size and how often it started over. */
  stats(): MatchCacheStats {
    return {
      words: this.#used,
      length: this.area.length,
      limit: this.limit,
      flushes: this.#flushes,
    };
  }

  /**
   * Count a check that walked its index's own array (see FLUSH_WORDS).
   */
  noCopyCheck(): void {
    this.#uncopied++;
  }

  /**
   * The base of `ix`'s copy in this cache (word `o` of `ix.words` is
   * `area[base + o]`), making the copy if `ix` has none in this generation
   * or it is too far behind; NO_COPY when the index does not fit: more
   * than a sixteenth of the limit, so that no one index can fill the cache.
   */
  copyOf(ix: CopiedIndex): number {
    const words = ix.words;
    const root = ix.root;
    const n = words.length;
    const len = n - root;
    let at = this.#used;
    const mine = ix.copyCache === this && ix.copyGen === this.generation;
    if (mine) {
      const copied = ix.copyEnd - root;
      const grown = n - ix.copyEnd;
      if (grown === 0 || (copied > REGROW_ANY && grown <= copied >> REGROW_SHIFT)) {
        return ix.copyAt - root;
      }
      // The last copy made: made again in its place.
      if (ix.copyAt + copied === this.#used) at = ix.copyAt;
    }
    if (len > this.limit >> 4) return NO_COPY;
    if (at + len > this.limit) {
      if (this.#uncopied * FLUSH_WORDS < this.#used) {
        // Not emptied yet: the copy this index has, if any, behind as it is.
        return mine ? ix.copyAt - root : NO_COPY;
      }
      this.generation++;
      this.#flushes++;
      this.#uncopied = 0;
      at = 0;
    }
    const area = this.area;
    let k = 0;
    // In place up to the array's length, then appended.
    for (const inPlace = Math.min(len, area.length - at); k < inPlace; k++)
      area[at + k] = words[root + k]!;
    for (; k < len; k++) area.push(words[root + k]!);
    this.#used = at + len;
    ix.copyCache = this;
    ix.copyGen = this.generation;
    ix.copyAt = at;
    ix.copyEnd = n;
    return at - root;
  }
}
