/**
 * compileMatcher: the rules of one robots.txt as they apply to one crawler
 * (docs/protocol.md#choosing-rules–docs/protocol.md#deciding-line), compiled once and reused for every URL of that origin.
 * The profile picks the matcher: the trie matcher for `google`, the same
 * over RFC 9309 §2.2.2's comparison form of the path for `rfc9309`, the
 * 1996 draft's first-match list for `legacy1996` (docs/protocol.md#profiles).
 */
import { RobotsError } from "../errors.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { LegacyMatcher } from "./legacy-matcher.js";
import type { MatchCache } from "./match-cache.js";
import type { PathMatcher, RobotsMatcher } from "./matcher.js";
import { Rfc9309Matcher } from "./trie/rfc9309-matcher.js";
import { TrieMatcher } from "./trie/trie-matcher.js";

export type { MatchedRule, PathMatcher, RobotsMatcher, Verdict } from "./matcher.js";

/** Options of compileMatcher. */
export interface MatchOptions {
  /**
   * Where checks keep copies of the compiled rules (match-cache.ts): faster
   * checks when many matchers are used in turn, within the cache's limit.
   * Without one, checks walk the compiled rules themselves. The 1996
   * profile's matcher does not use it.
   */
  readonly cache?: MatchCache;
}

/** Compile the rules of `robots` that apply to `agent` (compared verbatim, docs/protocol.md#choosing-rules). */
export function compileMatcher(
  robots: RobotsTxt,
  agent: string,
  options: MatchOptions = {},
): RobotsMatcher {
  return compilePathMatcher(robots, agent, options);
}

/** compileMatcher, typed with the client's fast path (isAllowedAt). */
export function compilePathMatcher(
  robots: RobotsTxt,
  agent: string,
  options: MatchOptions = {},
): PathMatcher {
  if (typeof agent !== "string") {
    throw new RobotsError(
      "invalid-agent",
      `agent must be a string, got ${agent === null ? "null" : typeof agent}`,
    );
  }
  if (robots.profile === "legacy1996") return new LegacyMatcher(robots, agent);
  if (robots.profile === "rfc9309") return new Rfc9309Matcher(robots, agent, options.cache ?? null);
  return new TrieMatcher(robots, agent, options.cache ?? null);
}
