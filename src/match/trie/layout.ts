/**
 * The trie's words: what each word of a RuleIndex's `words` array means.
 * One array of small integers holds the entry records, then the node
 * records in the order the nodes were built (the root at compile time,
 * every other node when a check first reaches it: build-node.ts), each
 * followed by its children, its glob records with what they need, and the
 * rest of its label, so a check walks one array and reads no other object
 * for ordinary paths. Every word stays a small integer (31 bits): one
 * double stored would turn the whole array into a list of doubles, slower
 * to read everywhere.
 *
 * Why one array: the corpus checks meet a different small file almost every
 * time, so a check's cost is the cache lines it reads, and one array reads
 * fewer than an object per index with eight arrays and a key string per node
 * (docs/performance-decisions.md, Checking: one packed integer array).
 */
import { GRAM_BITS } from "./prefilters.js";

// ---- entry records, at the start of `words`, one per entry in id order
// (rank order: rank.ts). The root's record comes right after them, so the
// root and the first nodes checks build are neighbours
// (docs/performance-decisions.md, Checking: entry records before the root).

export const ENTRY_RECORD = 1;
/**
 * Its rule number in the file's table, times 2, plus 1 for an index.html
 * twin. The entry's line (the deciding line,
 * docs/protocol.md#deciding-line) is read from the rule's row: only
 * explanations and deciding lines ask for it, never a verdict.
 */
export const E_RULE = 0;

// ---- a node record, at the node's offset o

/** Best unconditional entry value (`id * 2 + allows`), or -1. */
export const N_PLAIN = 0;
/** Best `…$` entry value: applies when the path ends at this node. */
export const N_EXACT = 1;
/** Child count (at most 128: patterns are ASCII) | glob count << COUNT_BITS. */
export const N_COUNTS = 2;
export const COUNT_BITS = 8;
export const KID_MASK = 0xff;
/**
 * Characters 1–4 of the edge label, a byte each, the first lowest
 * (character 0 is the child's key, matched when the child is found): most
 * label compares end within them (docs/performance-decisions.md, Checking).
 */
export const N_LABEL_HEAD = 3;
export const HEAD_CHARS = 4;
/**
 * For a label longer than 1 + HEAD_CHARS: where in `words` the rest of it
 * starts, characters 5, 6, … packed like the head, after the node's glob
 * records, so a check never reads the pattern string
 * (docs/performance-decisions.md, Checking: label tails in the words).
 */
export const N_LABEL_TAIL = 4;
/** The label's length. */
export const N_LABEL_LEN = 5;
/**
 * Then the node's children: (first character, child offset) pairs, sorted
 * by character. A child not built yet has offset `~p` (negative), p where
 * it is in LazyTrie#pending: `~` always makes a small integer, where
 * `-p - 1` can be a double to V8 (`-0`).
 */
export const N_KIDS = 6;

// ---- glob records, after the children, best first

/**
 * In a node of fewer than GRAM_MIN_GLOBS globs, SMALL_RECORD words each:
 * its value, an info word (below), and where in `words` the first
 * segment's characters are, packed after the records. Most globs have one
 * segment (`/*.pdf$`, `/*?sort=`), so a check decides them from `words`
 * alone and reads no glob object (docs/performance-decisions.md, Checking).
 */
export const SMALL_RECORD = 3;
// The info word of a small record: rarest character (bits 0-6), kind
// (7-8: G_*), offset of that character in the first segment (9-16: G_FLOAT,
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
 * In a node of GRAM_MIN_GLOBS globs or more (the n-gram prefilter,
 * prefilters.ts), the globs are grouped by the 1-gram of their rarest
 * character, so a check passes over a group whose character is not in the
 * path with one test (2.1–2.6 % less time per corpus check). The node's
 * glob area holds the number of groups, then a header per group
 * (GROUP_HEADER words: its best value, then its 1-gram | its record count
 * << GROUP_COUNT_SHIFT), groups in order of their best value (descending),
 * then each group's records, best first: BIG_RECORD words each, the value
 * and four n-grams of the glob's segments, GRAMS_UNKNOWN until a check
 * first needs them (-1: none).
 */
export const BIG_RECORD = 5;
export const GROUP_HEADER = 2;
export const GROUP_COUNT_SHIFT = GRAM_BITS;
/**
 * Records per group at most (a fuller group makes way for a new one of the
 * same 1-gram): the count shifted stays a small integer.
 */
export const GROUP_MAX = 0x7fff;
export const GRAMS_UNKNOWN = -2;

// ---- key words, one per entry id in LazyTrie#keys (kept only while nodes
// are pending): its key's length << KEY_LEN_SHIFT | its meta bits, the
// verdict bit of its value and its PatternShape << META_SHAPE_SHIFT. The
// key starts where its rule's pattern does, read from the rule's row
// (build-node.ts keyStart): one word an entry instead of three.

export const META_SHAPE_SHIFT = 1;
export const KEY_LEN_SHIFT = 3;
export const KEY_META_MASK = (1 << KEY_LEN_SHIFT) - 1;

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
