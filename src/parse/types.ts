import type { Profile } from "../protocol/profile.js";

/** One `user-agent` line (docs/protocol.md#groups). */
export interface AgentLine {
  /** Its line number. */
  readonly line: number;
  /** The value as written (UTF-8 if valid, else one character per byte). */
  readonly value: string;
  /**
   * The product token the line names: the longest prefix of `[A-Za-z_-]`
   * (`FooBot/1.2` → `FooBot`), or `*` for the global group (docs/protocol.md#groups).
   */
  readonly token: string;
  /** The line names the global group (`*`, `* foo`, `*\tfoo`). */
  readonly global: boolean;
}

/** Allow or disallow. */
export type RuleKind = "allow" | "disallow";

/** One `allow` or `disallow` line. */
export interface Rule {
  /** Allow or disallow. */
  readonly kind: RuleKind;
  /** Its line number. */
  readonly line: number;
  /** The value as written (UTF-8 if valid, else one character per byte). */
  readonly value: string;
  /** The normalised pattern matching uses (docs/protocol.md#rule-values); ASCII only. */
  readonly pattern: string;
  /** Index of the group in `groups`, or -1 for a rule before any user-agent line. */
  readonly group: number;
}

/** Any directive that is not access control (crawl-delay, host, unknown keys…; docs/protocol.md#other-directives). */
export interface Directive {
  /** The key lowercased (`crawl-delay`). */
  readonly key: string;
  /** The key as written. */
  readonly name: string;
  /** The value as written, trimmed. */
  readonly value: string;
  /** Its line number. */
  readonly line: number;
  /** Index of the group it appeared in, or -1 outside any group. */
  readonly group: number;
}

/** A Sitemap line. */
export interface Sitemap {
  /** The sitemap URL as written. */
  readonly url: string;
  /** Its line number. */
  readonly line: number;
}

/** User-agent lines followed by rule lines (docs/protocol.md#groups). */
export interface Group {
  /** Its index in the file's groups. */
  readonly index: number;
  /** Its user-agent lines. */
  readonly agents: readonly AgentLine[];
  /** Its allow and disallow rules, in file order. */
  readonly rules: readonly Rule[];
  /** Its other lines (Crawl-delay, Content-Usage…). */
  readonly directives: readonly Directive[];
}

/**
 * How the reference reads a line (the conformance `lines` format):
 * `unused` is a key it knows but ignores (crawl-delay, host, …), `unknown`
 * is any other key, garbage, a blank or comment-only line.
 */
export type LineKind = "user-agent" | "allow" | "disallow" | "sitemap" | "unused" | "unknown";

/** How the parser read one line (docs/protocol.md#lines). */
export interface LineRecord {
  /** Its line number. */
  readonly line: number;
  /** What the line is. */
  readonly kind: LineKind;
  /** Its key is a typo the parser accepts (`Disalow`). */
  readonly typo: boolean;
  /** It has no colon, and the parser read it anyway. */
  readonly missingColon: boolean;
  /** It is longer than the parser reads (MAX_LINE_BYTES). */
  readonly tooLong: boolean;
  /** It has a comment. */
  readonly comment: boolean;
}

/** Options of parseRobotsTxt. */
export interface ParseOptions {
  /** Default `google` (docs/protocol.md#profiles). */
  readonly profile?: Profile;
}
