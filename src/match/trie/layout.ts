/**
 * The trie's words: what each word of a RuleIndex's `words` array means.
 * One array of small integers holds the entries' lines and rule numbers
 * (for the deciding line and explanations), then the node records in the
 * order the nodes were built (the root at compile time, every other node
 * when a check first reaches it: build-node.ts), each followed by its
 * children (first character, child offset, in character order), its glob
 * records with what they need, and the rest of its label, so a check walks
 * one array and reads no other object for ordinary paths. Measured on the
 * bench's corpus checks (a different small file for almost every check, so
 * memory latency dominates): one object per index with eight arrays and one
 * key string per node took 540–590 ns per check.
 *
 * Every word stays a small integer (31 bits): one double stored would turn
 * the whole array into a list of doubles, slower to read everywhere.
 */
import { GRAM_BITS } from "./prefilters.js";

// ---- entry records: `words[0, ENTRY_RECORD * size)`, by entry id

/** Best unconditional entry value (`id * 2 + allows`), or -1. */
export const N_PLAIN = 0;
/** Best `…$` entry value: applies when the path ends at this node. */
export const N_EXACT = 1;
/** Child count (at most 128: patterns are ASCII) | glob count << 8. */
export const N_COUNTS = 2;
export const COUNT_BITS = 8;
export const KID_MASK = 0xff;
/**
 * Characters 1–4 of the edge label, a byte each, the first lowest (character 0 is the kid key,
 * matched when the child is found). Most label compares end within them, so
 * a check descends without reading further. Measured (when the rest was
 * read from the file's pattern string) on the bench's corpus checks, three in-process A/B
 * runs against the same code without it: 5–9 % less time per check (median
 * of 14 passes each); building is within noise (one word read per node).
 */
export const N_LABEL_HEAD = 3;
export const HEAD_CHARS = 4;
/**
 * For a label longer than 1 + HEAD_CHARS: where in `words` the rest of it
 * starts, characters 5, 6, … four to a word like the head, after the node's
 * glob records. So a check compares labels without reading the pattern
 * text, a separate object elsewhere in memory (fewer cache misses per
 * check; re-measured by the corpus checks of `npm run bench -- core`).
 */
export const N_LABEL_TAIL = 4;
/** The label's length. */
export const N_LABEL_LEN = 5;
/**
 * Then KID_COUNT (first character, child offset) pairs, sorted by character;
 * a child not built yet has offset `~p` (negative), p where it is in
 * LazyTrie#pending: `~` always makes a small integer, where `-p - 1` can be
 * a double to V8 (`-0`) and storing one turns `words` into a list of doubles,
 */
export const N_KIDS = 6;
/**
 * then GLOB_COUNT glob records, best first. In a node of fewer than
 * GRAM_MIN_GLOBS globs, SMALL_RECORD words each: its value, an info word
 * (rarest character, kind, where that character is in the first segment,
 * the segment's length: G_*), and where in `words` the first segment's
 * characters are, four to a word like a label's, after the records. Most
 * globs have one segment (`/*.pdf$`, `/*?sort=`), so a check decides them
 * from `words` alone and reads no glob object. Measured on the bench's corpus
 * checks (one pass): 23,426 glob objects read past the rare-character
 * test, 20,306 of them for one-segment globs, and 15,659 of the 23,426
 * only to find that the first segment does not occur.
 */
export const SMALL_RECORD = 3;
// The info word of a small record: rarest character (bits 0-6), kind
// (7-8), offset of that character in the first segment (9-16: G_FLOAT,
// G_FIRST), the first segment's length (17-30).
export const INFO_KIND_SHIFT = 7;
export const INFO_AT_SHIFT = 9;
export const INFO_LEN_SHIFT = 17;
export const INFO_AT_MAX = 0xff;
export const INFO_LEN_MAX = 0x3fff;
/** Tested through its GlobData only (a segment too long to pack, or the rarest character in a later segment). */
export const G_OBJECT = 0;
/** One segment, unanchored (`/*?sort=`): decided from `words`. */
export const G_FLOAT = 1;
/** One segment, anchored (`/*.pdf$`): decided from `words`. */
export const G_END = 2;
/** Several segments: the first is looked for from `words`, the GlobData decides. */
export const G_FIRST = 3;
/**
 * In a node of GRAM_MIN_GLOBS globs or more (the n-gram prefilter), the
 * globs are grouped by the 1-gram of their rarest character, so a check
 * passes over a whole group whose character is not in the path with one
 * test. The node's glob area holds the number of groups, then a header
 * per group (GROUP_HEADER words: its best value, then its 1-gram | its
 * record count << GROUP_COUNT_SHIFT), groups in order of their best value
 * (descending), then each group's records in the same order, best first:
 * BIG_RECORD words each, the value and four n-grams of the glob's
 * segments, GRAMS_UNKNOWN until a check first needs them (-1: none).
 * The filter then reads only `words` and the stamped table, and reaches a
 * glob's object only to match it. Measured on the bench's corpus checks
 * (one pass): 3,851 visits of such nodes. Before grouping, they examined
 * 182,476 records, one by one, best first, and 54,723 of them had their
 * rarest character in the path. Grouped, they read at most 40,731 headers and
 * 54,781 records in the 7,357 groups whose character was in the path:
 * 2.1-2.6 % less time per check (paired in-process runs, both orders).
 */
export const BIG_RECORD = 5;
export const GROUP_HEADER = 2;
export const GROUP_COUNT_SHIFT = GRAM_BITS;
/**
 * Records per group at most (a fuller group makes way for a new one of the
 * same 1-gram): the count shifted stays a small integer, where a larger
 * number would make `words` a list of doubles, slower to read everywhere.
 */
export const GROUP_MAX = 0x7fff;
export const GRAMS_UNKNOWN = -2;

/** Before the root's record, at the start of `words`, one record per entry in id order: */
export const ENTRY_RECORD = 2;
/** the entry's source line (the deciding line, SPEC.md §6), */
export const E_LINE = 0;
/** and its rule number in the file's table, times 2, plus 1 for an index.html twin. */
export const E_RULE = 1;

// Per entry id, in LazyTrie#keys: where its key starts in the pattern text,
// its length, and its meta word.
export const K_START = 0;
export const K_LEN = 1;
export const K_META = 2;
export const KEY_RECORD = 3;
// Meta word: the verdict bit of its value and its PatternShape. A glob's
// rarest character is found when the node that holds it is built (see
// globStop): measured on 60 corpus files of 200-5,000 rules, finding it for
// every glob at compile time was half of ranking their entries.
export const META_SHAPE_SHIFT = 1;

// ---- characters packed four to a word, the first lowest

/** Characters `text[from, to)` (at most four, ASCII) as one word, the first lowest. */
export function labelWord(text: string, from: number, to: number): number {
  let word = 0;
  for (let k = from; k < to; k++) word |= text.charCodeAt(k) << (8 * (k - from));
  return word;
}

/** Append `text[from, to)` (ASCII) to `words`, four characters to a word (labelWord), for segmentAt. */
export function appendChars(words: number[], text: string, from: number, to: number): void {
  for (let j = from; j < to; j += 4) words.push(labelWord(text, j, Math.min(j + 4, to)));
}

/**
 * Does `str` hold at `p` the `len` characters packed at `words[w…]` (four to a
 * word, the first lowest)? A label's tail and a glob's first segment.
 */
export function segmentAt(
  words: readonly number[],
  w: number,
  len: number,
  str: string,
  p: number,
): boolean {
  let word = 0;
  for (let j = 0; j < len; j++) {
    if ((j & 3) === 0) word = words[w++]!;
    if ((word & 0xff) !== str.charCodeAt(p + j)) return false;
    word >>= 8;
  }
  return true;
}
