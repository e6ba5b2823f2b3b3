/**
 * The findings that say a body is not read as a person reading it would
 * expect: a byte-order mark, an HTML page, binary data or a UTF-16 file
 * instead of a robots.txt. The same findings, in the same words, as
 * lintRobotsTxt gives, without linting every line: the commands that read
 * a robots.txt to answer for it (check, explain, diff, agents, fetch) print
 * them as notes. No `node:` imports.
 */
import { parseRobotsTxt } from "../parse/parse-robots-txt.js";
import { bomPrefixLength } from "../protocol/byte-order-mark.js";
import type { Profile } from "../protocol/profile.js";
import { bodyProblem, bomFinding, htmlWithGroupsFinding } from "./byte-probes.js";
import type { Diagnostic } from "./diagnostics.js";
import { lintRobotsTxt } from "./lint-robots-txt.js";
import { asSentence } from "./text.js";

const READING_IDS: ReadonlySet<string> = new Set([
  "bom",
  "html-instead-of-robots",
  "binary-instead-of-robots",
]);

/** Does a UTF-8 byte-order mark (EF BB BF) stand anywhere but at the start? */
function hasInnerBom(body: Uint8Array): boolean {
  for (let i = body.indexOf(0xef, 1); i >= 0; i = body.indexOf(0xef, i + 1)) {
    if (body[i + 1] === 0xbb && body[i + 2] === 0xbf) return true;
  }
  return false;
}

/** The reading findings of `body`, in line order, worded as lintRobotsTxt words them. */
export function readingFindings(body: Uint8Array, profile: Profile): Diagnostic[] {
  if (hasInnerBom(body)) {
    // A byte-order mark inside the file is a per-line finding: rare enough
    // to ask the whole linter for it.
    return lintRobotsTxt(body, { profile, lines: false }).diagnostics.filter(
      (d) => READING_IDS.has(d.id) || (d.id === "invalid-utf8" && d.severity === "error"),
    );
  }
  const bomEnd = bomPrefixLength(body);
  const out: Diagnostic[] = [];
  const problem = bodyProblem(body, bomEnd);
  if (problem !== undefined) {
    const markup =
      problem.id === "html-instead-of-robots" || problem.id === "binary-instead-of-robots";
    // Markup or control bytes above real groups: crawlers apply the groups
    // (lintRobotsTxt's second pass). Rare, so parsing here costs little.
    const groups = markup ? parseRobotsTxt(body, { profile }).groups.length : 0;
    if (groups === 0) {
      // Not a robots.txt: that one finding says it all, as in lintRobotsTxt.
      return [asFinding({ ...problem, severity: "error", line: 1 })];
    }
    if (problem.id === "html-instead-of-robots") out.push(htmlWithGroupsFinding(groups));
  }
  if (bomEnd > 0) out.push(bomFinding(bomEnd));
  return out.map(asFinding);
}

/** Message and fix as sentences, as lintRobotsTxt gives them. */
function asFinding(d: Diagnostic): Diagnostic {
  return { ...d, message: asSentence(d.message), fix: asSentence(d.fix) };
}
