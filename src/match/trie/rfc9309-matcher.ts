/**
 * The matcher of the `rfc9309` profile: the trie matcher (the same ranking
 * and deciding line, docs/protocol.md#matching) over the path in RFC 9309
 * §2.2.2's comparison form (src/protocol/percent-encoding.ts), so that
 * `/%70rivate` is `/private` on both sides. The patterns are already in that
 * form (the parser writes them so under this profile); a path is rewritten
 * only when it holds a `%` or a character outside ASCII, otherwise the
 * check is the trie matcher's as it is. The google profile's matcher is
 * not touched.
 */
import type { RobotsTxt } from "../../parse/parse-robots-txt.js";
import { comparisonForm, needsComparisonForm } from "../../protocol/percent-encoding.js";
import type { MatchCache } from "../match-cache.js";
import type { MatchedRule, Verdict } from "../matcher.js";
import { isPathEnd, locatePath, type PathSpan } from "../url-path.js";
import { TrieMatcher } from "./trie-matcher.js";

const scratch: PathSpan = { str: "", start: 0, end: 0 };

/**
 * `url` with its path in comparison form, located as the trie matcher
 * locates it: the text before the path is kept, so the rewritten URL's
 * path starts at the same place (the characters that start a path, `/`,
 * `?` and `;`, are reserved and never decoded); the fragment is dropped.
 */
export function comparisonUrl(url: string): string {
  if (typeof url !== "string") return url; // the trie matcher throws its error
  const span = locatePath(url, scratch);
  const { str, start, end } = span;
  if (!needsComparisonForm(str, start, end)) return url;
  // A path that needed a leading `/` (`h?x` → `/?x`) is a new string: a path alone.
  if (str !== url) return comparisonForm(str, start, end);
  return url.slice(0, start) + comparisonForm(url, start, end);
}

/**
 * A URL whose path starts with `/` at `pathStart` and runs to the first
 * `#` or NUL (PathMatcher#isAllowedAt), its path in comparison form at the
 * same place: `url` itself when that changes nothing.
 */
export function comparisonAt(url: string, pathStart: number): string {
  let end = pathStart;
  const n = url.length;
  while (end < n && !isPathEnd(url.charCodeAt(end))) end++;
  if (!needsComparisonForm(url, pathStart, end)) return url;
  return url.slice(0, pathStart) + comparisonForm(url, pathStart, end);
}

export class Rfc9309Matcher extends TrieMatcher {
  /** Made by compileMatcher, and by compileAlone with `alone` (src/match/alone.ts). */
  constructor(robots: RobotsTxt, agent: string, cache: MatchCache | null, alone = false) {
    super(robots, agent, cache, alone);
  }

  override isAllowed(url: string): boolean {
    return super.isAllowed(comparisonUrl(url));
  }

  /** See PathMatcher#isAllowedAt. */
  override isAllowedAt(url: string, pathStart: number): boolean {
    return super.isAllowedAt(comparisonAt(url, pathStart), pathStart);
  }

  override decidingLine(url: string): number {
    return super.decidingLine(comparisonUrl(url));
  }

  override check(url: string): Verdict {
    return super.check(comparisonUrl(url));
  }

  override matches(url: string): readonly MatchedRule[] {
    return super.matches(comparisonUrl(url));
  }
}
