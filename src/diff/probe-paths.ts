/**
 * Paths worth checking when two versions of a robots.txt are compared and no
 * URL list is given. A verdict can only change at the edge of some rule's
 * pattern (docs/protocol.md#matching: prefix match, `*` any run, final `$` anchors), so for
 * every pattern of either file we probe the path it names, a path just inside
 * it and paths just outside it. No `node:` imports.
 */
import type { RobotsTxt } from "../parse/parse-robots-txt.js";

function withSlash(p: string): string {
  return p.startsWith("/") ? p : `/${p}`;
}

/** Probe paths for one normalised pattern. */
export function probesForPattern(pattern: string): string[] {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  if (body === "" || body === "/") return [];
  const out: string[] = [];
  const star = body.indexOf("*");
  // `*` filled with nothing and with one character: both sides of a glob.
  const filledEmpty = body.replaceAll("*", "");
  const filledX = body.replaceAll("*", "x");
  out.push(filledEmpty, filledX);
  if (star > 0) out.push(body.slice(0, star));
  if (anchored) {
    // Just outside an anchored pattern: one character more.
    out.push(`${filledX}x`);
  } else if (!body.endsWith("*")) {
    // Just inside: something after the prefix.
    out.push(body.endsWith("/") ? `${filledX}x` : `${filledX}/x`);
  }
  // Just outside: the prefix one character short.
  const literal = star < 0 ? body : body.slice(0, star);
  if (literal.length > 1) out.push(literal.slice(0, -1));
  // Google's index.html rule (docs/protocol.md#matching): `/d/index.html` also allows `/d/`.
  const slash = body.lastIndexOf("/");
  if (slash >= 0 && body.startsWith("/index.htm", slash)) out.push(body.slice(0, slash + 1));
  return out.map(withSlash);
}

/** Sorted, distinct probe paths for the patterns of every file, always including `/`. */
export function probePaths(files: readonly RobotsTxt[]): readonly string[] {
  const set = new Set<string>(["/"]);
  for (const robots of files) {
    for (const g of robots.groups) {
      for (const r of g.rules) for (const p of probesForPattern(r.pattern)) set.add(p);
    }
  }
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
