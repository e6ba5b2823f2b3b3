/**
 * The sitemaps and other directives of one parsed file (docs/protocol.md#other-directives), packed
 * like the rules (RuleTable): the parser copies their bytes end to end into
 * one string, one character per byte, and keeps a row of offsets per line.
 * `Sitemap` and `Directive` objects, and their strings, are made the first
 * time someone reads them.
 *
 * Why: HTML and CSS served as robots.txt make many `name: value` lines
 * (`color: red;`), which docs/protocol.md#other-directives keeps as directives, and a matcher never
 * reads one. Measured on the corpus (240,857 such lines, 54,742 sitemaps):
 * making their objects and strings while parsing was ~5 % of parsing and
 * compiling it (parse + compile of the corpus with them left out entirely,
 * in-process A/B: 363 against 388 ms, min of 15).
 */
import { decodeText } from "./bytes.js";
import type { Directive, Sitemap } from "./types.js";

/** A table's rows: a list, or an Int32Array for a big file (keptRows in rule-table.ts). */
type ValueRows = readonly number[] | Int32Array;

/**
 * Integers per directive in `directiveRows`, in this order (the parser
 * pushes them so): line, group, key start, value start, value end.
 */
export const DIRECTIVE_ROW = 5;
const D_LINE = 0;
/** Index of the group it appeared in, or -1 outside any group. */
const D_GROUP = 1;
/** Where the key starts in `text`; it ends where the value starts. */
const D_KEY = 2;
const D_VALUE = 3;
const D_END = 4;
/** Integers per sitemap in `sitemapRows`, in this order: line, URL start, URL end. */
export const SITEMAP_ROW = 3;
const S_LINE = 0;
const S_URL = 1;
const S_END = 2;

/** Lowercased keys already seen (`Crawl-delay` → `crawl-delay`); bounded. */
const lowerKeys = new Map<string, string>();

function lowerKey(name: string): string {
  let key = lowerKeys.get(name);
  if (key === undefined) {
    key = name.toLowerCase();
    if (lowerKeys.size < 1024) lowerKeys.set(name, key);
  }
  return key;
}

export class ValueTable {
  /** Every value's bytes (and each directive's key before it), one character per byte. */
  readonly #text: string;
  readonly #directiveRows: ValueRows;
  readonly #sitemapRows: ValueRows;
  #directives: Directive[] | null = null;
  #sitemaps: Sitemap[] | null = null;

  constructor(text: string, directiveRows: ValueRows, sitemapRows: ValueRows) {
    this.#text = text;
    this.#directiveRows = directiveRows;
    this.#sitemapRows = sitemapRows;
  }

  /** Every directive, in file order, made once and then shared. */
  directives(): Directive[] {
    if (this.#directives === null) {
      const rows = this.#directiveRows;
      const text = this.#text;
      const out: Directive[] = [];
      for (let r = 0; r < rows.length; r += DIRECTIVE_ROW) {
        // A key is ASCII (the parser keeps only name-like keys).
        const name = text.slice(rows[r + D_KEY]!, rows[r + D_VALUE]!);
        out.push({
          key: lowerKey(name),
          name,
          value: this.#value(rows[r + D_VALUE]!, rows[r + D_END]!),
          line: rows[r + D_LINE]!,
          group: rows[r + D_GROUP]!,
        });
      }
      this.#directives = out;
    }
    return this.#directives;
  }

  /**
   * Some directive's key, ASCII-lowercased, is `key`: found without making
   * the directives (a reader of one key need not make every one).
   */
  hasKey(key: string): boolean {
    const rows = this.#directiveRows;
    const text = this.#text;
    const n = key.length;
    search: for (let r = 0; r < rows.length; r += DIRECTIVE_ROW) {
      const ks = rows[r + D_KEY]!;
      if (rows[r + D_VALUE]! - ks !== n) continue;
      for (let i = 0; i < n; i++) {
        let c = text.charCodeAt(ks + i);
        if (c >= 0x41 && c <= 0x5a) c |= 0x20;
        if (c !== key.charCodeAt(i)) continue search;
      }
      return true;
    }
    return false;
  }

  /**
   * How many directives and sitemaps there are and the characters
   * of their keys and values: what their objects will hold once read (the
   * client's memory estimate, src/client/retained-size.ts).
   */
  sizeFacts(): {
    directives: number;
    directiveChars: number;
    sitemaps: number;
    sitemapChars: number;
  } {
    const d = this.#directiveRows;
    let directiveChars = 0;
    for (let r = 0; r < d.length; r += DIRECTIVE_ROW)
      directiveChars += d[r + D_END]! - d[r + D_KEY]!;
    const m = this.#sitemapRows;
    let sitemapChars = 0;
    for (let r = 0; r < m.length; r += SITEMAP_ROW) sitemapChars += m[r + S_END]! - m[r + S_URL]!;
    return {
      directives: d.length / DIRECTIVE_ROW,
      directiveChars,
      sitemaps: m.length / SITEMAP_ROW,
      sitemapChars,
    };
  }

  /** Every sitemap, in file order. */
  sitemaps(): Sitemap[] {
    if (this.#sitemaps === null) {
      const rows = this.#sitemapRows;
      const out: Sitemap[] = [];
      for (let r = 0; r < rows.length; r += SITEMAP_ROW) {
        out.push({ url: this.#value(rows[r + S_URL]!, rows[r + S_END]!), line: rows[r + S_LINE]! });
      }
      this.#sitemaps = out;
    }
    return this.#sitemaps;
  }

  /**
   * The value at `text[start, end)` for people, as decodeText reads its
   * bytes: UTF-8 when valid, else one character per byte (which the text
   * already is).
   */
  #value(start: number, end: number): string {
    const s = this.#text.slice(start, end);
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) >= 0x80) {
        const bytes = new Uint8Array(s.length);
        for (let k = 0; k < s.length; k++) bytes[k] = s.charCodeAt(k);
        return decodeText(bytes, 0, bytes.length);
      }
    }
    return s;
  }
}
