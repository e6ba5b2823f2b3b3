/**
 * Lines crawlers do not apply (docs/protocol.md#key-and-value,
 * #other-directives): keys Google ignores, unknown keys, and lines that are
 * no directive at all. Called by the linter (lint-robots-txt.ts).
 */
import { isAsciiSpace, latin1 } from "../parse/bytes.js";
import { UNUSED_KEYS } from "../parse/line-keys.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { describeCrawlDelay, isQuotable, restoredCaveat } from "./advice.js";
import {
  describeInvisible,
  invisibleWidth,
  isPlausibleKey,
  leadingKnownKey,
} from "./byte-probes.js";
import type { LintEdit } from "./diagnostics.js";
import { ACCESS_KEYS, CANONICAL_KEY, closestKey, DIRECTIVE_SUPPORT } from "./directive-support.js";
import { type LineReporter, missingColon } from "./line-checks.js";
import { exactText, lineTail, quoteLine, replaceLine } from "./line-edits.js";
import { asciiLowerBytes, columnOf, escapeText, fullSnippet, quote, snippet } from "./text.js";

/** What the linter must know of a line that hides a User-agent line. */
export interface OtherLineReporter extends LineReporter {
  /** Line `line` would be a User-agent line, but an invisible character hides its key. */
  hidesAgent(line: number): void;
}

/** The whole line as a comment: what to write to keep prose that is no directive. */
function commentOut(ev: LineEvent, b: Uint8Array): { fix: string; edit?: LintEdit } {
  const text = exactText(b, ev.start, ev.rawEnd);
  if (text === undefined) return { fix: "make it a comment by starting it with #, or remove it" };
  const line = `# ${text.trimStart()}`;
  return {
    fix: `make it a comment: write ${quoteLine(line)}, or remove the line`,
    edit: replaceLine(ev.line, [line]),
  };
}

/** unsupported-directive, unknown-directive, missing-colon for other keys (docs/protocol.md#other-directives). */
export function checkOther(r: OtherLineReporter, ev: LineEvent, b: Uint8Array): void {
  const ks = ev.keyStart;
  const ke = ev.keyEnd;
  if (!isPlausibleKey(b, ks, ke) || /^https?$/i.test(latin1(b, ks, Math.min(ke, ks + 6)))) {
    checkInvalid(r, ev, b);
    return;
  }
  const lower = asciiLowerBytes(b, ks, ke);
  const written = escapeText(latin1(b, ks, ke));
  const support = UNUSED_KEYS.has(lower) ? DIRECTIVE_SUPPORT[lower] : undefined;
  if (support !== undefined) {
    if (ev.missingColon) missingColon(r, ev, b, support.name);
    const outside =
      !r.inGroup && lower === "crawl-delay"
        ? "; outside any group, even those crawlers do not know which crawler it is for"
        : "";
    r.at(
      "unsupported-directive",
      support.severity,
      ev,
      columnOf(b, ev.start, ks),
      `${support.name} is not part of the robots.txt standard, and Google ignores it. ${support.honouredBy.charAt(0).toUpperCase()}${support.honouredBy.slice(1)}${outside}`,
      support.fix,
    );
    const delay =
      lower === "crawl-delay"
        ? describeCrawlDelay(latin1(b, ev.valueStart, ev.valueEnd), lineTail(ev, b))
        : undefined;
    if (delay !== undefined) {
      r.at(
        "invalid-crawl-delay",
        "warning",
        ev,
        columnOf(b, ev.start, ev.valueStart),
        delay.message,
        delay.fix,
        delay.lines === undefined ? undefined : replaceLine(ev.line, delay.lines),
      );
    }
    return;
  }
  if (ev.missingColon) {
    // "Hello world": two words, no colon — prose, not a directive.
    checkInvalid(r, ev, b);
    return;
  }
  const guess = closestKey(lower);
  const access = guess !== undefined && (ACCESS_KEYS as readonly string[]).includes(guess);
  const message =
    guess !== undefined
      ? `unknown key ${quote(written)} (did you mean ${quote(guess)}?): crawlers ignore this line${access ? `, so this ${guess} line has no effect` : ""}`
      : `unknown key ${quote(written)}: crawlers ignore this line`;
  const rest = guess === undefined ? undefined : exactText(b, ke, ev.rawEnd);
  if (guess !== undefined) {
    // The whole line when the rest of it is text to keep; else only the key.
    const line = rest === undefined ? undefined : `${guess}${rest}`;
    const write = line === undefined ? `the key as ${quote(guess)}` : quoteLine(line);
    r.at(
      "unknown-directive",
      access ? "error" : "warning",
      ev,
      columnOf(b, ev.start, ks),
      message,
      `write ${write}, or remove the line${restoredCaveat(guess)}`,
      line === undefined ? undefined : replaceLine(ev.line, [line]),
    );
  } else {
    const { fix, edit } = commentOut(ev, b);
    r.at("unknown-directive", "warning", ev, columnOf(b, ev.start, ks), message, fix, edit);
  }
  if (guess === "Allow" || guess === "Disallow") r.addsRule();
}

/** The message and fix for a line that is no directive; `edit` when one definite line fixes it. */
interface InvalidAdvice {
  message: string;
  fix: string;
  edit?: LintEdit | undefined;
}

/** What a line that is no directive says, by what it looks like (`text`, trimmed and escaped; [s, e) its bytes). */
function describeInvalid(
  ev: LineEvent,
  b: Uint8Array,
  text: string,
  s: number,
  e: number,
  canonical: string | undefined,
): InvalidAdvice {
  if (canonical !== undefined) {
    return {
      message: `${quote(text)} is not a directive: ${canonical === "Allow" ? "an" : "a"} ${canonical} line needs "${canonical}:" followed by one value, so crawlers ignore it`,
      fix: `write "${canonical}: <value>", one value per line`,
    };
  }
  if (b[s] === 0x3a /* : */) {
    return {
      message: `${quote(text)} has no key before the colon, so crawlers ignore it`,
      fix: "add the key, or remove the line",
    };
  }
  if (/^(<<<<<<<|=======|>>>>>>>)/.test(text)) {
    return {
      message: `${quote(text)} is a leftover merge-conflict marker; crawlers ignore the line`,
      fix: "resolve the merge conflict and remove the markers",
    };
  }
  const whole = fullSnippet(b, s, e);
  const tail = exactText(b, s, e) === undefined ? undefined : exactText(b, e, ev.rawEnd);
  const quotable = isQuotable(whole) && tail !== undefined;
  if (/^https?:\/\//i.test(text)) {
    const line = `Sitemap: ${whole}${tail ?? ""}`;
    return {
      message: `${quote(text)} is a URL without a key, so crawlers ignore it`,
      fix: quotable
        ? `if it is a sitemap, write ${quoteLine(line)}`
        : 'if it is a sitemap, put "Sitemap: " in front of it',
    };
  }
  if (b[s] === 0x2f /* / */ && !/\s/.test(text)) {
    const message = `${quote(text)} is a path without a key, so crawlers ignore it`;
    // "/" alone would block the whole site: name the key, not the verdict.
    if (text === "/" || text === "/*") {
      return {
        message,
        fix: `add the key it was meant to have: Disallow (block the whole site) or Allow (allow everything, overriding every Disallow rule that is not longer)`,
      };
    }
    const line = `Disallow: ${whole}${tail ?? ""}`;
    return {
      message,
      fix: `${quotable ? `write ${quoteLine(line)}` : 'put "Disallow: " in front of it'} (or "Allow: …" to allow it, which overrides every Disallow rule that is not longer)`,
      edit: quotable ? replaceLine(ev.line, [line]) : undefined,
    };
  }
  return {
    message: `${quote(text)} is not a robots.txt directive ("key: value"), so crawlers ignore it`,
    ...commentOut(ev, b),
  };
}

/** invalid-line: not a directive (docs/protocol.md#key-and-value). */
export function checkInvalid(r: OtherLineReporter, ev: LineEvent, b: Uint8Array): void {
  let s = ev.start;
  let e = ev.nul >= 0 ? ev.nul : ev.comment >= 0 ? ev.comment : ev.end;
  while (s < e && isAsciiSpace(b[s]!)) s++;
  while (e > s && isAsciiSpace(b[e - 1]!)) e--;
  const text = snippet(b, s, e, 60);
  // Invisible characters before a key (a zero-width joiner, a no-break
  // space) hide the directive: crawlers see a different key.
  let k = s;
  let invisible = "";
  for (let w = invisibleWidth(b, k); w > 0; w = invisibleWidth(b, k)) {
    if (invisible === "") invisible = describeInvisible(b, k);
    k += w;
  }
  const key = leadingKnownKey(b, k, e);
  const canonical = key === undefined ? undefined : CANONICAL_KEY[key]!;
  // Only a lost rule or agent is an error; a bare "Disallow" does nothing either way.
  const access = key !== undefined && key !== "sitemap" && e - k > key.length;
  if (key === "user-agent" && invisible !== "" && !r.inGroup) r.hidesAgent(ev.line);
  let advice: InvalidAdvice;
  if (canonical !== undefined && invisible !== "") {
    const rest = exactText(b, k, ev.rawEnd);
    const line = rest === undefined ? undefined : `${exactText(b, ev.start, s) ?? ""}${rest}`;
    advice = {
      message: `an invisible character (${invisible}) before "${canonical}" makes the key unrecognisable, so crawlers ignore this line`,
      fix: `delete the invisible character at the start of the line${line === undefined ? "" : `: write ${quoteLine(line)}`}${restoredCaveat(canonical)}`,
      edit: line === undefined ? undefined : replaceLine(ev.line, [line]),
    };
  } else {
    advice = describeInvalid(ev, b, text, s, e, canonical);
  }
  r.at(
    "invalid-line",
    access ? "error" : "warning",
    ev,
    undefined,
    advice.message,
    advice.fix,
    advice.edit,
  );
  if (
    canonical === "Allow" ||
    canonical === "Disallow" ||
    /"(?:Allow|Disallow): |add the key it was meant/.test(advice.fix)
  ) {
    r.addsRule();
  }
}
