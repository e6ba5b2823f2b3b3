/**
 * What a parse writes (parse-robots-txt.ts drives it, one line event at a
 * time): the reusable buffers, and the builder of groups, rule rows,
 * normalised patterns (docs/protocol.md#rule-values), sitemaps and other
 * directives.
 */
import { indexHtmlSlash } from "../protocol/index-html.js";
import { hexDigitValue, isUnreservedByte } from "../protocol/percent-encoding.js";
import { isGlobalAgent, productTokenEnd } from "../protocol/product-token.js";
import type { Profile } from "../protocol/profile.js";
import { asciiText, decodeText, isHexDigit, latin1 } from "./bytes.js";
import { isUnusedKey } from "./line-keys.js";
import {
  keptRows,
  M_ALLOWS,
  M_GROUP_SHIFT,
  M_INDEX_HTML,
  M_STAR,
  ParsedGroup,
  R_END,
  R_LINE,
  R_META,
  R_START,
  ROW,
  type RuleRows,
  RuleTable,
} from "./rule-table.js";
import type { AgentLine } from "./types.js";
import { DIRECTIVE_ROW, SITEMAP_ROW, ValueTable } from "./value-table.js";

/** `0`–`9`, `A`–`F` as bytes: the digits of a `%XX` escape (docs/protocol.md#rule-values). */
const HEX_DIGITS = new Uint8Array([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46,
]);

/**
 * What a byte of a rule value needs besides copying (docs/protocol.md#rule-values): 0 for
 * nothing, so the common case is one table read and one test.
 */
const P_STAR = 1;
const P_PERCENT = 3;
const P_HIGH = 4;
const PATTERN_BYTE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  t[0x2a] = P_STAR;
  t[0x25] = P_PERCENT;
  t.fill(P_HIGH, 0x80);
  return t;
})();

/**
 * Buffers a parse writes its rule rows, pattern bytes, line codes and value
 * bytes into before copying out what the file keeps. One set is reused by
 * every parse that does not re-enter (a hook may call the parser again).
 */
export interface Scratch {
  rows: number[];
  /** Directive rows and sitemap rows (ValueTable), grown in place like `rows`. */
  dirRows: number[];
  siteRows: number[];
  pat: Uint8Array;
  patView: DataView;
  bits: Uint8Array;
  vals: Uint8Array;
}

function newScratch(size: number, rows: number): Scratch {
  const pat = new Uint8Array(size);
  return {
    rows: zeros(rows * ROW),
    dirRows: zeros(rows),
    siteRows: zeros(rows),
    pat,
    patView: viewOf(pat),
    bits: new Uint8Array(size),
    vals: new Uint8Array(size),
  };
}

/** Larger scratch buffers are dropped after the parse that grew them. */
const SCRATCH_MAX = 1 << 20;
const SCRATCH_SIZE = 1 << 16;
const SCRATCH_ROWS = 1024;
/** One set of buffers reused by every parse of the module, so a parse of a small file allocates little. */
const shared: Scratch = newScratch(SCRATCH_SIZE, SCRATCH_ROWS);
/** The shared buffers are in use (a hook re-entered the parser). */
let sharedBusy = false;

/**
 * Run one parse with scratch buffers: the shared ones, or fresh small ones
 * when a hook re-entered the parser. Buffers a parse grew past SCRATCH_MAX
 * elements are dropped after it.
 */
export function withScratch<T>(run: (scratch: Scratch) => T): T {
  if (sharedBusy) return run(newScratch(256, 16));
  sharedBusy = true;
  try {
    return run(shared);
  } finally {
    trimShared();
    sharedBusy = false;
  }
}

/** Drop the shared buffers a parse grew past SCRATCH_MAX elements. */
function trimShared(): void {
  if (shared.rows.length > SCRATCH_MAX) shared.rows = zeros(SCRATCH_ROWS * ROW);
  if (shared.dirRows.length > SCRATCH_MAX) shared.dirRows = zeros(SCRATCH_ROWS);
  if (shared.siteRows.length > SCRATCH_MAX) shared.siteRows = zeros(SCRATCH_ROWS);
  if (shared.pat.length > SCRATCH_MAX) {
    shared.pat = new Uint8Array(SCRATCH_SIZE);
    shared.patView = viewOf(shared.pat);
  }
  if (shared.bits.length > SCRATCH_MAX) shared.bits = new Uint8Array(SCRATCH_SIZE);
  if (shared.vals.length > SCRATCH_MAX) shared.vals = new Uint8Array(SCRATCH_SIZE);
}

/** A list of `n` zeros (small integers, no holes). */
function zeros(n: number): number[] {
  const out: number[] = [];
  growRows(out, n);
  return out;
}

/** Grow a row list in place to at least `need` elements (doubling), in order: no holes. */
function growRows(rows: number[], need: number): void {
  const target = Math.max(need, rows.length * 2);
  while (rows.length < target) rows.push(0);
}

export function grownBytes(a: Uint8Array, need: number): Uint8Array {
  const out = new Uint8Array(Math.max(need, a.length * 2));
  out.set(a);
  return out;
}

function viewOf(a: Uint8Array): DataView {
  return new DataView(a.buffer, a.byteOffset, a.byteLength);
}

/** The first `n` bytes of a buffer holding ASCII only, as one string. */
export function asciiRun(buf: Uint8Array, n: number): string {
  return n === 0 ? "" : asciiText(buf, 0, n);
}

/**
 * `list` as the file keeps it: a list grown by `push` has room for
 * about half as many elements again (at least 16 more), which the parsed
 * file would carry for its whole life; a copy by `slice` has none.
 */
function exactList<T>(list: T[]): T[] {
  return list.length === 0 ? [] : list.slice();
}

/** No directive or sitemap rows: shared, as a ValueTable never changes its rows. */
const NO_ROWS: readonly number[] = [];

/** A ValueTable's rows: the first `n` of a scratch list as keptRows keeps them, the empty ones shared. */
function keptValueRows(rows: number[], n: number): RuleRows {
  return n === 0 ? NO_ROWS : keptRows(rows, n);
}

/** `[A-Za-z][A-Za-z0-9_. -]*`: a key that can name a directive. */
function isDirectiveName(bytes: Uint8Array, start: number, end: number): boolean {
  const first = bytes[start]! | 0x20;
  if (first < 0x61 || first > 0x7a) return false;
  for (let i = start + 1; i < end; i++) {
    const b = bytes[i]!;
    const l = b | 0x20;
    if ((l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39)) continue;
    if (b === 0x2d || b === 0x5f || b === 0x2e || b === 0x20) continue;
    return false;
  }
  return true;
}

/** What a parse keeps of a file, before RobotsTxt wraps it. */
export interface ParsedParts {
  readonly groups: ParsedGroup[];
  readonly table: RuleTable;
  /** Rules before the first group (orphans). */
  readonly orphanCount: number;
  readonly values: ValueTable;
}

/**
 * What a parse writes, line by line (docs/protocol.md#groups,
 * #rule-values, #other-directives): groups, rule rows and their
 * normalised patterns, sitemaps and other directives, in the buffers of a
 * Scratch, copied out once by `finish`.
 */
export class FileBuilder {
  readonly groups: ParsedGroup[] = [];
  current: ParsedGroup | null = null;
  // Rule rows and pattern bytes (see RuleTable), copied out once at the end.
  // Rows are a JS list, copied out with one native `slice` (a typed array
  // would need a copy loop to become JS-heap data; see finish).
  readonly rows: number[];
  pat: Uint8Array;
  patView: DataView;
  // Sitemaps and other directives: their bytes end to end, and a row of
  // offsets each (see ValueTable), written like the rule rows into lists
  // reused by the next parse: a file of many of them grew a list past
  // 128 KiB by copies, each a new large object.
  vals: Uint8Array;
  readonly dirRows: number[];
  readonly siteRows: number[];
  /** Integers written to dirRows and siteRows. */
  dn = 0;
  sn = 0;
  rn = 0;
  pn = 0;
  vn = 0;
  written: Map<number, string> | null = null;
  // True when the last access line (user-agent/allow/disallow) was a rule:
  // the next user-agent line then opens a new group (docs/protocol.md#groups).
  afterRule = false;
  readonly #bytes: Uint8Array;
  readonly #view: DataView | null;
  // rfc9309: patterns in RFC 9309 §2.2.2's comparison form (src/protocol/percent-encoding.ts).
  readonly #decodeUnreserved: boolean;
  /** The last #pattern's first `*` offset, or -1. */
  #star = -1;
  /** The last #pattern was the value as written. */
  #asWritten = true;

  constructor(bytes: Uint8Array, view: DataView | null, profile: Profile, scratch: Scratch) {
    this.#bytes = bytes;
    this.#view = view;
    this.#decodeUnreserved = profile === "rfc9309";
    this.rows = scratch.rows;
    this.dirRows = scratch.dirRows;
    this.siteRows = scratch.siteRows;
    this.pat = scratch.pat;
    this.patView = scratch.patView;
    this.vals = scratch.vals;
  }

  /** A user-agent line: opens a group unless it adds to the one being opened. */
  agent(line: number, vs: number, ve: number): void {
    const bytes = this.#bytes;
    const global = isGlobalAgent(bytes, vs, ve);
    const te = global ? vs : productTokenEnd(bytes, vs, ve);
    const value = decodeText(bytes, vs, ve);
    const agent: AgentLine = {
      line,
      value,
      token: global ? "*" : te === ve ? value : te === vs ? "" : asciiText(bytes, vs, te),
      global,
    };
    const current = this.current;
    if (current === null || this.afterRule) {
      const group = new ParsedGroup(this.groups.length, this.rn, agent);
      group.directiveFrom = group.directiveTo = this.dn / DIRECTIVE_ROW;
      this.groups.push(group);
      this.current = group;
      this.afterRule = false;
    } else current.agents.push(agent);
  }

  /** An allow or disallow line: one rule row, its pattern normalised. */
  rule(allows: boolean, line: number, vs: number, ve: number): void {
    const bytes = this.#bytes;
    const rows = this.rows;
    const rn = this.rn;
    // The normalised pattern (docs/protocol.md#rule-values) goes straight into the
    // pattern buffer: a non-ASCII byte becomes `%XX` (3 bytes), so
    // reserve three per byte.
    let pat = this.pat;
    if (this.pn + 3 * (ve - vs) > pat.length) {
      pat = this.pat = grownBytes(pat, this.pn + 3 * (ve - vs));
      this.patView = viewOf(pat);
    }
    // This rule's row and the next row's start, where its pattern ends (R_END).
    if ((rn + 1) * ROW + 1 > rows.length) growRows(rows, (rn + 1) * ROW + 1);
    const ps = this.pn;
    const pn = this.#pattern(pat, ps, vs, ve);
    this.pn = pn;
    if (!this.#asWritten) {
      this.written ??= new Map();
      this.written.set(rn, decodeText(bytes, vs, ve));
    }
    const current = this.current;
    const r = rn * ROW;
    rows[r + R_START] = ps;
    rows[r + R_END] = pn;
    rows[r + R_LINE] = line;
    rows[r + R_META] =
      (allows ? M_ALLOWS : 0) |
      (this.#star >= 0 ? M_STAR : 0) |
      (allows && indexHtmlSlash(pat, ps, pn) >= 0 ? M_INDEX_HTML : 0) |
      ((current === null ? 0 : current.index + 1) << M_GROUP_SHIFT);
    this.rn = rn + 1;
    if (current !== null) {
      current.ruleTo = rn + 1;
      this.afterRule = true;
    }
  }

  /**
   * Write the normalised pattern of `bytes[vs, ve)` into `pat` from `pn`;
   * returns where it ends, and leaves its first `*` (or -1) in `#star` and
   * whether it is the value as written in `#asWritten` (fields, not a
   * returned object: one fewer allocation per rule).
   */
  #pattern(pat: Uint8Array, pn: number, vs: number, ve: number): number {
    const bytes = this.#bytes;
    const view = this.#view;
    let star = -1;
    let asWritten = true;
    // Most bytes are copied as they are: a first loop takes the run of
    // them before any `%`, `*`, other byte <= 0x2a or byte >= 0x80, on
    // int32 offsets (the source offset plus a fixed distance), cheaper than
    // one loop with a table lookup per byte (docs/performance-decisions.md,
    // Parsing).
    let i = vs | 0;
    const delta = (pn - i) | 0;
    const plainEnd = ve | 0;
    if (view !== null) {
      // Four bytes at a time while none of them is <= 0x2a or >= 0x80
      // (the word test is exact: some byte is below 0x2b, or has its top
      // bit set).
      const patView = this.patView;
      const wordsEnd = plainEnd - 3;
      while (i < wordsEnd) {
        const x = view.getInt32(i, true);
        if ((x | ((x - 0x2b2b2b2b) & ~x)) & 0x80808080) break;
        patView.setInt32(i + delta, x, true);
        i += 4;
      }
    }
    while (i < plainEnd) {
      const b = bytes[i]!;
      if (b <= 0x2a || b >= 0x80) break;
      pat[i + delta] = b;
      i++;
    }
    pn = i + delta;
    for (; i < ve; i++) {
      const b = bytes[i]!;
      const k = PATTERN_BYTE[b]!;
      if (k === 0) {
        pat[pn++] = b;
        continue;
      }
      if (k === P_STAR) {
        if (star < 0) star = pn;
      } else if (k === P_HIGH) {
        pat[pn++] = 0x25;
        pat[pn++] = HEX_DIGITS[b >> 4]!;
        pat[pn++] = HEX_DIGITS[b & 0xf]!;
        asWritten = false;
        continue;
      } else if (i + 2 < ve && isHexDigit(bytes[i + 1]!) && isHexDigit(bytes[i + 2]!)) {
        // `%xx`: the hex digits uppercased
        const h1 = bytes[i + 1]!;
        const h2 = bytes[i + 2]!;
        if (this.#decodeUnreserved) {
          // rfc9309: an unreserved character is compared decoded (§2.2.2).
          const v = hexDigitValue(h1) * 16 + hexDigitValue(h2);
          if (isUnreservedByte(v)) {
            pat[pn++] = v;
            asWritten = false;
            i += 2;
            continue;
          }
        }
        if (h1 >= 0x61 || h2 >= 0x61) asWritten = false;
        pat[pn++] = 0x25;
        pat[pn++] = h1 >= 0x61 ? h1 - 0x20 : h1;
        pat[pn++] = h2 >= 0x61 ? h2 - 0x20 : h2;
        i += 2;
        continue;
      }
      pat[pn++] = b;
    }
    this.#star = star;
    this.#asWritten = asWritten;
    return pn;
  }

  /** A sitemap line: a row (ValueTable) of line, URL start, URL end. */
  sitemap(line: number, vs: number, ve: number): void {
    const bytes = this.#bytes;
    let vn = this.vn;
    if (vn + (ve - vs) > this.vals.length) this.vals = grownBytes(this.vals, vn + (ve - vs));
    const vals = this.vals;
    const rows = this.siteRows;
    let sn = this.sn;
    if (sn + SITEMAP_ROW > rows.length) growRows(rows, sn + SITEMAP_ROW);
    rows[sn++] = line;
    rows[sn++] = vn;
    rows[sn++] = vn + (ve - vs);
    this.sn = sn;
    for (let i = vs; i < ve; i++) vals[vn++] = bytes[i]!;
    this.vn = vn;
  }

  /**
   * An `other` line: kept as a directive only when its key reads as a name
   * (`Crawl-delay`, `X-Thing`, `crawl delay`; docs/protocol.md#other-directives).
   * HTML served as robots.txt makes thousands of `<a href="http: …` lines
   * per file that are no directive of any grammar: keeping them cost 182k
   * objects and 23.5 MB of text over the corpus. Line records and the
   * linter read the events, so they still see every such line. Returns
   * whether the key is one the reference knows but ignores (`unused`).
   */
  other(line: number, ks: number, ke: number, vs: number, ve: number): boolean {
    const bytes = this.#bytes;
    if (!isDirectiveName(bytes, ks, ke)) return false;
    let vn = this.vn;
    const need = vn + (ke - ks) + (ve - vs);
    if (need > this.vals.length) this.vals = grownBytes(this.vals, need);
    const vals = this.vals;
    const valueAt = vn + (ke - ks);
    const current = this.current;
    // A directive row (ValueTable): line, group, key, value, end.
    const rows = this.dirRows;
    let dn = this.dn;
    if (dn + DIRECTIVE_ROW > rows.length) growRows(rows, dn + DIRECTIVE_ROW);
    rows[dn++] = line;
    rows[dn++] = current === null ? -1 : current.index;
    rows[dn++] = vn;
    rows[dn++] = valueAt;
    rows[dn++] = need;
    this.dn = dn;
    for (let i = ks; i < ke; i++) vals[vn++] = bytes[i]!;
    for (let i = vs; i < ve; i++) vals[vn++] = bytes[i]!;
    this.vn = vn;
    if (current !== null) current.directiveTo = dn / DIRECTIVE_ROW;
    return isUnusedKey(bytes, ks, ke);
  }

  /** What the file keeps, made on the JS heap; the grown buffers go back to `scratch`. */
  finish(scratch: Scratch): ParsedParts {
    const rn = this.rn;
    // A typed array longer than 64 bytes gets its own buffer outside the
    // JS heap, measured at ~1 µs to make, which was 6 % of parsing the
    // corpus for the line codes and the rows.
    const table = new RuleTable(
      keptRows(this.rows, rn === 0 ? 0 : rn * ROW + 1),
      rn,
      asciiRun(this.pat, this.pn),
      this.written,
    );
    const values = new ValueTable(
      latin1(this.vals, 0, this.vn),
      keptValueRows(this.dirRows, this.dn),
      keptValueRows(this.siteRows, this.sn),
    );
    // The grown buffers serve the next parse (rows grew in place).
    scratch.pat = this.pat;
    scratch.patView = this.patView;
    scratch.vals = this.vals;
    const groups = exactList(this.groups);
    for (const g of groups) {
      g.table = table;
      g.values = values;
      // A group's first agent made its list of one; only more grew it.
      if (g.agents.length > 1) g.agents = g.agents.slice();
    }
    return { groups, table, orphanCount: groups.length === 0 ? rn : groups[0]!.ruleFrom, values };
  }
}
