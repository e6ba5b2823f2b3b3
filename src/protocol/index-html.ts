/**
 * Google's index.html rule (docs/protocol.md#matching): an allow rule that does not match,
 * and whose last path segment begins with `index.htm`, is also tried as the
 * same directory with `$` (`Allow: /d/index.html` also allows exactly `/d/`,
 * with the priority of `/d/$`). Google's profile only (docs/protocol.md#profiles: RFC 9309
 * strict has no such rule). The parser finds the rule's `/` while copying a
 * pattern (bytes); the linter and tests ask about a pattern string. Both
 * forms live here, and a test holds them to the same answers.
 */
import type { Profile } from "./profile.js";

/** The start of a last segment the rule extends, as text. */
const INDEX_HTM = "/index.htm";
/** The same, as bytes. */
const INDEX_HTM_BYTES = new Uint8Array([
  0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d,
]);

/** Does `profile` apply the index.html rule? */
export function hasIndexHtmlRule(profile: Profile): boolean {
  return profile === "google";
}

/**
 * The offset of the last `/` of the allow pattern `pat[start, end)` when its
 * last segment begins `index.htm`, else -1. Searched from the end after
 * copying, on allow rules only, rather than tracked on every `/` while
 * copying: fewer mispredicted branches on plain rules
 * (docs/performance-decisions.md, Parsing).
 */
export function indexHtmlSlash(pat: Uint8Array, start: number, end: number): number {
  let slash = end - 1;
  while (slash >= start && pat[slash] !== 0x2f) slash--;
  if (slash < start || end - slash < INDEX_HTM_BYTES.length) return -1;
  for (let k = 1; k < INDEX_HTM_BYTES.length; k++) {
    if (pat[slash + k] !== INDEX_HTM_BYTES[k]) return -1;
  }
  return slash;
}

/** Is `pattern` (normalised) one the rule extends, when it is an allow pattern? */
export function extendsToDirectory(pattern: string): boolean {
  // `includes` first: a native search, where `lastIndexOf` is a runtime call.
  if (!pattern.includes(INDEX_HTM)) return false;
  return pattern.startsWith(INDEX_HTM, pattern.lastIndexOf("/"));
}
