import type { Profile } from "../protocol/profile.js";

/** One `user-agent` line (docs/protocol.md#groups). */
export interface AgentLine {
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

export type RuleKind = "allow" | "disallow";

/** One `allow` or `disallow` line. */
export interface Rule {
  readonly kind: RuleKind;
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
  readonly value: string;
  readonly line: number;
  /** Index of the group it appeared in, or -1 outside any group. */
  readonly group: number;
}

export interface Sitemap {
  readonly url: string;
  readonly line: number;
}

/** User-agent lines followed by rule lines (docs/protocol.md#groups). */
export interface Group {
  readonly index: number;
  readonly agents: readonly AgentLine[];
  readonly rules: readonly Rule[];
  readonly directives: readonly Directive[];
}

/**
 * How the reference reads a line (the conformance `lines` format):
 * `unused` is a key it knows but ignores (crawl-delay, host, …), `unknown`
 * is any other key, garbage, a blank or comment-only line.
 */
export type LineKind = "user-agent" | "allow" | "disallow" | "sitemap" | "unused" | "unknown";

export interface LineRecord {
  readonly line: number;
  readonly kind: LineKind;
  readonly typo: boolean;
  readonly missingColon: boolean;
  readonly tooLong: boolean;
  readonly comment: boolean;
}

export interface ParseOptions {
  /** Default `google` (docs/protocol.md#profiles). */
  readonly profile?: Profile;
}
