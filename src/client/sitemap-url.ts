/**
 * A `Sitemap:` value resolved against its origin's robots.txt URL, as
 * sitemaps() answers it (docs/protocol.md#other-directives).
 */
import type { RobotsOrigin } from "../fetch/origin.js";

/**
 * Characters a URL's path keeps as they are (no percent-encoding, no
 * rewriting): letters, digits, `-._~!$&'()*+,;=:@` and `/`. Not `%`
 * (`%2e` is a dot segment), `\` (a slash in http URLs), `?`, `#`,
 * whitespace or anything beyond ASCII.
 */
const KEPT: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const c of "-._~!$&'()*+,;=:@/") t[c.charCodeAt(0)] = 1;
  for (let c = 0x30; c <= 0x39; c++) t[c] = 1;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = 1;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = 1;
  return t;
})();

/**
 * `value` resolved against `origin`'s robots.txt URL: `new URL(value,
 * robotsUrl).href`, or null when that throws. A path from the root made
 * of kept characters with no `.` or `..` segment resolves to itself after
 * the origin, so it is joined without a parse: a file of thousands of
 * sitemaps made a URL parse per line, most of sitemaps()' time.
 */
export function sitemapUrl(value: string, origin: RobotsOrigin): string | null {
  if (isPlainPath(value)) return origin.origin + value;
  try {
    return new URL(value, origin.robotsUrl).href;
  } catch {
    // Not a URL even relative to the robots.txt: nothing a crawler can fetch.
    return null;
  }
}

/** `/`, not `//`, then kept characters only, and no segment `.` or `..`. */
function isPlainPath(value: string): boolean {
  const n = value.length;
  if (n === 0 || value.charCodeAt(0) !== 0x2f || (n > 1 && value.charCodeAt(1) === 0x2f)) {
    return false;
  }
  let from = 1;
  for (let i = 1; i <= n; i++) {
    const c = i === n ? 0x2f : value.charCodeAt(i);
    if (c >= 0x80 || KEPT[c] === 0) return false;
    if (c !== 0x2f) continue;
    // A segment of one or two dots is removed or climbs: the parser's work.
    const len = i - from;
    if (
      (len === 1 || len === 2) &&
      value.charCodeAt(from) === 0x2e &&
      value.charCodeAt(i - 1) === 0x2e
    ) {
      return false;
    }
    from = i + 1;
  }
  return true;
}
