/**
 * The allow/disallow rules of one parsed file, packed: one row of integers
 * per rule and one string holding every normalised pattern (docs/protocol.md#rule-values),
 * end to end. `Rule` objects are made only when someone reads them
 * (`group.rules`, explanations); the matcher compiles straight from the rows
 * and uses the pattern text itself as its edge labels.
 *
 * Why: the corpus has 960,767 rules. Making an object and a string for each
 * while parsing cost about half of the parse time (allocation and the
 * garbage collector promoting them), for data that a crawler only ever
 * reads through its compiled matcher.
 */
import { joinOwn } from "./bytes.js";
import type { AgentLine, Directive, Group, Rule } from "./types.js";
import type { ValueTable } from "./value-table.js";

/**
 * Integers per rule in `rows`. Patterns lie end to end in `text`, so a
 * rule's pattern ends where the next one starts: `rows` holds one integer
 * more than `ROW` per rule, the end of the last pattern (R_END).
 */
export const ROW = 3;
/** Where the rule's normalised pattern starts in `text`. */
export const R_START = 0;
/** Where it ends (exclusive): the next row's R_START, or the final integer of `rows`. */
export const R_END = ROW + R_START;
export const R_LINE = 1;
/** The rule's M_* bits, and its group + 1 (0 for a rule before any group) from M_GROUP_SHIFT up. */
export const R_META = 2;
/** R_META bit: an `allow` rule. */
export const M_ALLOWS = 1;
/** R_META bit: the pattern holds a `*` (ruleStar). */
export const M_STAR = 2;
/**
 * R_META bit: an allow rule whose last `/` begins `/index.htm` (Google's
 * index.html rule, docs/protocol.md#matching; indexHtmlSlashOf).
 */
export const M_INDEX_HTML = 4;
export const M_GROUP_SHIFT = 3;

/**
 * `ROW` integers per rule, in file order (see R_*), and the end of the
 * last pattern: a list of small integers, or an Int32Array when there are
 * more than BIG_LIST of them.
 */
export type RuleRows = readonly number[] | Int32Array;

/**
 * Offset in the pattern text of rule `no`'s first `*`, or -1. Found when
 * asked (compiling a glob), not kept per rule: most rules have none, and
 * a kept offset was an eighth of a parsed file's retained heap.
 */
export function ruleStar(text: string, rows: RuleRows, no: number): number {
  const r = no * ROW;
  return (rows[r + R_META]! & M_STAR) === 0 ? -1 : text.indexOf("*", rows[r + R_START]!);
}

/**
 * For an allow rule whose last `/` begins `/index.htm`, the offset in the
 * pattern text of that `/` (Google's index.html rule,
 * docs/protocol.md#matching), else -1. The parser found it (M_INDEX_HTML);
 * its place is found again when asked.
 */
export function indexHtmlSlashOf(text: string, rows: RuleRows, no: number): number {
  const r = no * ROW;
  return (rows[r + R_META]! & M_INDEX_HTML) === 0
    ? -1
    : text.lastIndexOf("/", rows[r + R_END]! - 1);
}

/**
 * A JS list longer than this is a "large object" in V8 (past 128 KiB of
 * 8-byte slots), and making one costs far more per element (allocating it
 * starts a young-generation collection); see docs/performance-decisions.md,
 * Parsing: big files' rows in an `Int32Array`.
 */
export const BIG_LIST = 16_384;

/**
 * The first `n` integers of a scratch row list, as the file keeps them: a
 * list of exactly `n` (one allocation; a typed array longer than 64 bytes
 * has a buffer outside the heap, about 1 µs to make), an Int32Array past
 * BIG_LIST. Every row value is a byte offset, a line number or a group
 * number shifted by M_GROUP_SHIFT, far below 2^31.
 */
export function keptRows(rows: readonly number[], n: number): RuleRows {
  if (n <= BIG_LIST) return rows.slice(0, n);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = rows[i]!;
  return out;
}

export class RuleTable {
  /** `ROW` integers per rule, in file order (see R_*), then the end of the last pattern. */
  readonly rows: RuleRows;
  readonly count: number;
  /**
   * Every rule's normalised pattern, concatenated (ASCII only). It never
   * holds `#` or NUL (a `#` starts a comment and a NUL ends the line,
   * docs/protocol.md#parsing), the two characters that end a URL's path
   * (docs/protocol.md#path-to-match): the
   * matcher's walk relies on that to find a path's end only when needed.
   */
  readonly text: string;
  /** Values as written, for the rules whose value differs from the pattern (by rule number). */
  readonly #written: ReadonlyMap<number, string> | null;
  #objects: (Rule | undefined)[] | null = null;

  constructor(
    rows: RuleRows,
    count: number,
    text: string,
    written: ReadonlyMap<number, string> | null,
  ) {
    this.rows = rows;
    this.count = count;
    this.text = text;
    this.#written = written;
  }

  /** The normalised pattern of rule `no`. */
  pattern(no: number): string {
    const r = no * ROW;
    return this.text.slice(this.rows[r + R_START]!, this.rows[r + R_END]!);
  }

  /** Rule `no`'s value as written when the parser kept it apart (it may differ from the pattern), else undefined. */
  writtenValue(no: number): string | undefined {
    return this.#written?.get(no);
  }

  /** Rule `no` as an object, made once and then shared. */
  rule(no: number): Rule {
    if (this.#objects === null) this.#objects = new Array<Rule | undefined>(this.count);
    let rule = this.#objects[no];
    if (rule === undefined) {
      const r = no * ROW;
      const meta = this.rows[r + R_META]!;
      const pattern = this.pattern(no);
      rule = {
        kind: (meta & M_ALLOWS) !== 0 ? "allow" : "disallow",
        line: this.rows[r + R_LINE]!,
        value: this.#written?.get(no) ?? pattern,
        pattern,
        group: (meta >> M_GROUP_SHIFT) - 1,
      };
      this.#objects[no] = rule;
    }
    return rule;
  }

  /**
   * A table of only the rules in `ranges` (in that order), their patterns
   * copied into a text of their own: what a matcher for one selection of
   * groups keeps once the file is dropped. Rule lines and groups stay.
   */
  select(ranges: readonly RuleRange[]): RuleTable {
    let count = 0;
    for (const g of ranges) count += g.ruleTo - g.ruleFrom;
    // Typed past a few rules: 4 bytes a value instead of 8, the store outside
    // the heap paid once (the table outlives its file, see the class comment).
    // Written in place: a copy made with Int32Array.from cost more than the
    // rest of the selection.
    const size = count * ROW + 1;
    const rows: number[] | Int32Array = size > 64 ? new Int32Array(size) : new Array<number>(size);
    // A range's patterns lie end to end here: its text is one slice.
    const parts: string[] = [];
    let written: Map<number, string> | null = null;
    let at = 0;
    let no2 = 0;
    for (const g of ranges) {
      const from = this.rows[g.ruleFrom * ROW + R_START]!;
      const shift = at - from;
      for (let no = g.ruleFrom; no < g.ruleTo; no++, no2++) {
        const r = no * ROW;
        const o = no2 * ROW;
        rows[o + R_START] = this.rows[r + R_START]! + shift;
        rows[o + R_LINE] = this.rows[r + R_LINE]!;
        rows[o + R_META] = this.rows[r + R_META]!;
        const w = this.#written?.get(no);
        if (w !== undefined) {
          written ??= new Map();
          written.set(no2, w);
        }
      }
      const to = this.rows[g.ruleTo * ROW + R_START]!;
      parts.push(this.text.slice(from, to));
      at += to - from;
    }
    rows[count * ROW + R_START] = at;
    // Slices of this table's whole text: joined apart from it, so that the
    // selection keeps only its own patterns.
    return new RuleTable(rows, count, joinOwn(parts), written);
  }

  /**
   * Do `ranges` here and `theirs` in `other` hold, range by range, the
   * same rules: the same patterns, kinds and lines, in the same order?
   * Then a matcher compiled from either answers every path alike (groups
   * and values as written are not compared: no verdict or deciding line
   * reads them). Ranges split otherwise count as different.
   */
  sameRules(ranges: readonly RuleRange[], other: RuleTable, theirs: readonly RuleRange[]): boolean {
    if (ranges.length !== theirs.length) return false;
    const a = this.rows;
    const b = other.rows;
    const low = (1 << M_GROUP_SHIFT) - 1;
    for (let i = 0; i < ranges.length; i++) {
      const { ruleFrom, ruleTo } = ranges[i]!;
      const d = (theirs[i]!.ruleFrom - ruleFrom) * ROW;
      if (theirs[i]!.ruleTo - theirs[i]!.ruleFrom !== ruleTo - ruleFrom) return false;
      // Patterns lie end to end: equal lengths and an equal run of text are equal patterns.
      const as = a[ruleFrom * ROW + R_START]!;
      const bs = b[ruleFrom * ROW + d + R_START]!;
      for (let r = ruleFrom * ROW; r < ruleTo * ROW; r += ROW) {
        if (
          a[r + R_LINE] !== b[r + d + R_LINE] ||
          (a[r + R_META]! & low) !== (b[r + d + R_META]! & low) ||
          a[r + R_END]! - as !== b[r + d + R_END]! - bs
        ) {
          return false;
        }
      }
      const n = a[ruleTo * ROW + R_START]! - as;
      if (this.text.slice(as, as + n) !== other.text.slice(bs, bs + n)) return false;
    }
    return true;
  }

  /** Rules `from` to `to` (exclusive) as objects. */
  rules(from: number, to: number): Rule[] {
    const out: Rule[] = [];
    for (let no = from; no < to; no++) out.push(this.rule(no));
    return out;
  }
}

/** Rules `ruleFrom` to `ruleTo` (exclusive) of a table: a group's. */
export interface RuleRange {
  readonly ruleFrom: number;
  readonly ruleTo: number;
}

/** A group as the parser builds it: its rules are a range of the file's rule table. */
export class ParsedGroup implements Group {
  readonly index: number;
  /** Its user-agent lines (the parser adds to it, then keeps a copy of the exact size). */
  agents: AgentLine[];
  /** First rule number of the group in the file's table. */
  ruleFrom: number;
  /** One past its last rule number. */
  ruleTo: number;
  /**
   * The group's directives are `[directiveFrom, directiveTo)` of
   * the file's (a group's lines are consecutive, so they are one range).
   */
  directiveFrom = 0;
  /** See directiveFrom. */
  directiveTo = 0;
  /** Set when parsing ends. */
  table: RuleTable | null = null;
  /** Set when parsing ends. */
  values: ValueTable | null = null;
  #rules: Rule[] | null = null;
  #directives: Directive[] | null = null;

  constructor(index: number, ruleFrom: number, first: AgentLine) {
    this.index = index;
    this.agents = [first];
    this.ruleFrom = ruleFrom;
    this.ruleTo = ruleFrom;
  }

  /** The group's other directives (docs/protocol.md#other-directives) in file order, the same objects as the file's. */
  get directives(): Directive[] {
    if (this.#directives === null) {
      this.#directives =
        this.values === null || this.directiveTo === this.directiveFrom
          ? []
          : this.values.directives().slice(this.directiveFrom, this.directiveTo);
    }
    return this.#directives;
  }

  /** The group's allow/disallow rules in file order. */
  get rules(): Rule[] {
    if (this.#rules === null) {
      this.#rules = this.table === null ? [] : this.table.rules(this.ruleFrom, this.ruleTo);
    }
    return this.#rules;
  }

  /** Plain data, rules included (`rules` is computed on first read). */
  toJSON(): Group {
    return {
      index: this.index,
      agents: this.agents,
      rules: this.rules,
      directives: this.directives,
    };
  }
}
