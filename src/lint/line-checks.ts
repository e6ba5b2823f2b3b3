/**
 * Per-line checks of the directives crawlers read (docs/protocol.md#key-and-value,
 * #groups, #matching): keys, user-agent values, rule patterns and sitemap
 * locations. The linter (lint-robots-txt.ts) calls them from the parser's
 * line events; they report through a LineReporter.
 */
import { latin1 } from "../parse/bytes.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { isGlobalAgent, isProductTokenChar } from "../protocol/product-token.js";
import { ruleKey } from "../protocol/rule-text.js";
import {
  allowCaveat,
  describeCutAgent,
  describeRelativePattern,
  describeSpacedPattern,
  STAR_CAVEAT,
  sitemapFix,
} from "./advice.js";
import { isAlnum } from "./byte-probes.js";
import type { Diagnostic, LintEdit, Severity } from "./diagnostics.js";
import { CANONICAL_KEY } from "./directive-support.js";
import { exactText, lineTail, quoteLine, replaceLine } from "./line-edits.js";
import { columnOf, fullSnippet, quote, snippet } from "./text.js";

/** What a line check reports to, and the linter state it reads. */
export interface LineReporter {
  /** A User-agent line came before this line. */
  readonly inGroup: boolean;
  /** Report a finding on line `ev`. */
  at(
    id: Diagnostic["id"],
    severity: Severity,
    ev: LineEvent,
    column: number | undefined,
    message: string,
    fix: string,
    edit?: LintEdit,
  ): void;
  /** The finding just reported has a fix that makes this line an allow or disallow rule. */
  addsRule(): void;
  /** The finding just reported has a fix that may remove this rule line. */
  removesRule(): void;
  /** A rule line, before any User-agent line (rule-outside-group, reported at the end). */
  orphanRule(ev: LineEvent, name: string, empty: boolean): void;
}

/** Line `ev` with `lines` in its place, when each is text; undefined otherwise. */
function editOf(ev: LineEvent, lines: readonly string[] | undefined): LintEdit | undefined {
  return lines === undefined ? undefined : replaceLine(ev.line, lines);
}

/**
 * The line with its key written `canonical` and a colon after it: what
 * accepted-typo and missing-colon ask for. Undefined when the rest of the
 * line is not text to write back.
 */
function canonicalLine(ev: LineEvent, b: Uint8Array, canonical: string): string | undefined {
  const rest = ev.missingColon
    ? exactText(b, ev.valueStart, ev.rawEnd)
    : exactText(b, ev.keyEnd, ev.rawEnd);
  if (rest === undefined) return undefined;
  return ev.missingColon ? `${canonical}: ${rest}` : `${canonical}${rest}`;
}

/** accepted-typo and missing-colon for recognised keys (docs/protocol.md#key-and-value, #directive-keys). */
export function checkKey(r: LineReporter, ev: LineEvent, b: Uint8Array): void {
  const canonical = CANONICAL_KEY[ev.kind]!;
  const longer = ev.keyEnd - ev.keyStart > canonical.length;
  if (ev.missingColon) missingColon(r, ev, b, canonical);
  if (!ev.typo && !longer) return;
  // Only now: most lines have nothing to report, and text costs
  // (docs/performance-decisions.md, Linting and text).
  const written = snippet(b, ev.keyStart, ev.keyEnd, 40);
  const keyCol = columnOf(b, ev.start, ev.keyStart);
  const line = canonicalLine(ev, b, canonical);
  const fix =
    line === undefined ? `write the key as ${quote(canonical)}` : `write ${quoteLine(line)}`;
  const edit = line === undefined ? undefined : replaceLine(ev.line, [line]);
  r.at(
    "accepted-typo",
    "warning",
    ev,
    keyCol,
    ev.typo
      ? `${quote(written)} is a misspelling of ${quote(canonical)} that Google accepts; crawlers that follow RFC 9309 strictly ignore this line`
      : `${quote(written)} is read as ${quote(canonical)} because Google matches keys by prefix; crawlers that follow RFC 9309 strictly ignore this line`,
    fix,
    edit,
  );
}

/** missing-colon: whitespace in place of the colon (docs/protocol.md#key-and-value). */
export function missingColon(
  r: LineReporter,
  ev: LineEvent,
  b: Uint8Array,
  canonical: string,
): void {
  const line = canonicalLine(ev, b, canonical);
  r.at(
    "missing-colon",
    "warning",
    ev,
    columnOf(b, ev.start, ev.keyEnd),
    `no colon after ${quote(snippet(b, ev.keyStart, ev.keyEnd, 40))}: Google accepts whitespace instead, other crawlers ignore the line`,
    line === undefined ? `write a colon after ${canonical}` : `write ${quoteLine(line)}`,
    line === undefined ? undefined : replaceLine(ev.line, [line]),
  );
}

/** empty-user-agent and user-agent-token-cut (docs/protocol.md#groups, #choosing-rules). */
export function checkUserAgent(r: LineReporter, ev: LineEvent, b: Uint8Array): void {
  const vs = ev.valueStart;
  const ve = ev.valueEnd;
  if (ve === vs) {
    r.at(
      "empty-user-agent",
      "warning",
      ev,
      undefined,
      "the user-agent line names no crawler, so it matches none",
      `name the crawler it is for (e.g. "User-agent: Googlebot"), or write "User-agent: *" for all of them${STAR_CAVEAT}`,
    );
    return;
  }
  // A line that is all one token or the wildcard has no finding: the text
  // and columns a finding shows are made only for the others.
  const global = isGlobalAgent(b, vs, ve);
  if (global && ve === vs + 1) return;
  let t = vs;
  if (!global) {
    while (t < ve && isProductTokenChar(b[t]!)) t++;
    if (t === ve) return;
  }
  const written = snippet(b, vs, ve, 50);
  if (global) {
    const tail = lineTail(ev, b);
    const line = `User-agent: *${tail ?? ""}`;
    r.at(
      "user-agent-token-cut",
      "info",
      ev,
      columnOf(b, ev.start, vs),
      `${quote(written)} is read as "*": the text after the * is ignored`,
      `write ${quoteLine(line)}`,
      editOf(ev, tail === undefined ? undefined : [line]),
    );
    return;
  }
  const token = latin1(b, vs, t);
  const cutCol = columnOf(b, ev.start, t);
  if (token === "") {
    // A warning, not an error: the crawler's own parser may still match
    // the full name; under Google's reading the group names nobody.
    r.at(
      "user-agent-token-cut",
      "warning",
      ev,
      cutCol,
      b[vs] === 0x2a
        ? `${quote(written)} is not the wildcard (a * must stand alone): crawlers read an empty name, so this group applies to no crawler`
        : `${quote(written)} does not start with a letter, "-" or "_": Google's parser reads an empty name, so for it this group applies to no crawler`,
      b[vs] === 0x2a
        ? `write "User-agent: *" for every crawler${STAR_CAVEAT}, or the crawler's name`
        : "name the crawler by its product token (letters, - and _ only); a crawler whose name starts otherwise can only be reached through *",
    );
    return;
  }
  const advice = describeCutAgent(written, token, String.fromCharCode(b[t]!), lineTail(ev, b));
  r.at(
    "user-agent-token-cut",
    advice.severity,
    ev,
    cutCol,
    advice.message,
    advice.fix,
    editOf(ev, advice.lines),
  );
}

/** rule-outside-group, empty-rule, pattern-without-leading-slash, dollar-not-at-end (docs/protocol.md#groups, #matching). */
export function checkRule(r: LineReporter, ev: LineEvent, b: Uint8Array): void {
  const vs = ev.valueStart;
  const ve = ev.valueEnd;
  const name = ruleKey(ev.kind === "allow" ? "allow" : "disallow");
  if (!r.inGroup) r.orphanRule(ev, name, vs === ve);
  if (vs === ve) {
    // An empty Disallow is the usual "allow everything"; group-checks.ts
    // reports it only when other rules make it pointless.
    if (ev.kind === "allow") {
      r.at(
        "empty-rule",
        "warning",
        ev,
        undefined,
        "an Allow line without a path has no effect",
        'remove the line, or give it the path it is meant to allow (e.g. "Allow: /public/"), which then allows that path over every Disallow rule that is not longer',
        replaceLine(ev.line, []),
      );
      r.removesRule();
    }
    return;
  }
  const first = b[vs]!;
  // What the line keeps after its value, for the fixes that rewrite it:
  // read only for a line that gets one (most rule lines get none).
  let tail: string | undefined | null = null;
  const tailOf = () => {
    if (tail === null) tail = lineTail(ev, b);
    return tail;
  };
  if (first !== 0x2f && first !== 0x2a) {
    const advice = describeRelativePattern(fullSnippet(b, vs, ve), name, tailOf());
    r.at(
      "pattern-without-leading-slash",
      "error",
      ev,
      columnOf(b, ev.start, vs),
      advice.message,
      advice.fix,
      editOf(ev, advice.lines),
    );
    if (advice.fix.includes("remove the line")) r.removesRule();
  }
  for (let i = vs; i < ve; i++) {
    if (b[i] === 0x20 || b[i] === 0x09) {
      // Fixed after the leading "/", if that is missing too: one change at a time.
      const advice = describeSpacedPattern(fullSnippet(b, vs, ve), name, tailOf());
      const edit = first === 0x2f || first === 0x2a ? editOf(ev, advice.lines) : undefined;
      r.at(
        "pattern-with-space",
        "error",
        ev,
        columnOf(b, ev.start, i),
        advice.message,
        advice.fix,
        edit,
      );
      break;
    }
  }
  checkDollar(r, ev, b, name);
}

/** dollar-not-at-end (docs/protocol.md#matching): a "$" before the end is a literal byte. */
function checkDollar(r: LineReporter, ev: LineEvent, b: Uint8Array, name: string): void {
  const vs = ev.valueStart;
  const ve = ev.valueEnd;
  for (let i = vs; i < ve - 1; i++) {
    if (b[i] !== 0x24 /* $ */) continue;
    // "/*.php$?" meant an anchor; "/*$toc" or "/$%7Bname%7D/" is a real
    // "$" in the site's URLs (several corpus files), so only a note.
    let word = false;
    for (let k = i + 1; k < ve && !word; k++) word = isAlnum(b[k]!);
    r.at(
      "dollar-not-at-end",
      word ? "info" : "warning",
      ev,
      columnOf(b, ev.start, i),
      word
        ? `"$" anchors the end of the path only as the last character of a pattern; here it matches a literal "$"`
        : `"$" anchors the end of the path only as the last character of a pattern; here it is a literal "$", so this rule matches only paths that contain "$"`,
      // Not %24: nothing is decoded, so a pattern with %24 never matches
      // the "$" a URL carries (docs/protocol.md#rule-values).
      word
        ? `if the site's URLs contain this $, nothing to do; to anchor the end, move the $ to the end, but then the rule no longer matches paths with a "$" here${allowCaveat(name)}`
        : `to anchor the end, move the $ to the end; the rule then no longer matches paths that contain "$" here, so keep it as it is if the site has such URLs${allowCaveat(name)}`,
    );
    return;
  }
}

/** sitemap-not-absolute (docs/protocol.md#other-directives). */
export function checkSitemap(r: LineReporter, ev: LineEvent, b: Uint8Array): void {
  const vs = ev.valueStart;
  const ve = ev.valueEnd;
  if (ve > vs) {
    try {
      const u = new URL(latin1(b, vs, ve));
      if (u.protocol === "http:" || u.protocol === "https:") return;
    } catch {
      // not a URL: reported below
    }
  }
  const written = snippet(b, vs, ve, 80);
  const { fix, lines } = sitemapFix(ve === vs ? "" : fullSnippet(b, vs, ve), lineTail(ev, b));
  r.at(
    "sitemap-not-absolute",
    "warning",
    ev,
    columnOf(b, ev.start, vs),
    ve === vs
      ? "the Sitemap line has no URL"
      : `${quote(written)} is not an absolute http(s) URL: Google and Bing ignore relative sitemap locations`,
    fix,
    editOf(ev, lines),
  );
}
