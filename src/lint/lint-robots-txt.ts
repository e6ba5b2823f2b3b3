/**
 * The linter (docs/protocol.md#parsing–docs/protocol.md#other-directives): how every line is read, and what in the file
 * will not work the way its author meant. It consumes the parser's own line
 * events through parseRobotsTxt's onLine hook, so parsing and linting are one
 * pass and can never disagree about a line (after Google's
 * reference, whose reporting handler reads the same events as its matcher).
 *
 * Never throws on any body; only bad options are programmer errors.
 */
import { RobotsError } from "../errors.js";
import { isAsciiSpace, latin1, toBytes } from "../parse/bytes.js";
import { crawlerView, cutLineFate } from "../parse/crawler-view.js";
import { UNUSED_KEYS } from "../parse/line-keys.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { bomPrefixLength } from "../protocol/byte-order-mark.js";
import { MAX_LINE_BYTES } from "../protocol/line-length.js";
import { isGlobalAgent, isProductTokenChar } from "../protocol/product-token.js";
import { checkProfile, type Profile } from "../protocol/profile.js";
import { ruleKey } from "../protocol/rule-text.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import {
  AGENT_CAVEAT,
  allowCaveat,
  describeCrawlDelay,
  describeCutAgent,
  describeRelativePattern,
  describeSpacedPattern,
  isQuotable,
  nulCaveat,
  restoredCaveat,
  STAR_CAVEAT,
  sitemapFix,
} from "./advice.js";
import {
  type BodyProblem,
  bodyProblem,
  bomFinding,
  describeInvisible,
  htmlWithGroupsFinding,
  invisibleWidth,
  isAlnum,
  isPlausibleKey,
  leadingKnownKey,
  MOJIBAKE_BOM,
  startsWithBytes,
} from "./byte-probes.js";
import type { Diagnostic, Severity } from "./diagnostics.js";
import { ACCESS_KEYS, CANONICAL_KEY, closestKey, DIRECTIVE_SUPPORT } from "./directive-support.js";
import { checkGroups } from "./group-checks.js";
import { GroupFixNotes } from "./group-fix-notes.js";
import { LimitFinding, type ReadLimit } from "./limit-finding.js";
import { type LineInfo, lineInfo } from "./line-info.js";
import {
  asciiLowerBytes,
  asSentence,
  type ByteScan,
  columnOf,
  escapeText,
  fullSnippet,
  quote,
  scanBytes,
  snippet,
} from "./text.js";
import { checkUsage } from "./usage-checks.js";

export interface LintOptions {
  /** Default `google` (docs/protocol.md#profiles). */
  readonly profile?: Profile;
  /** Bytes crawlers read; content past it is reported (default ROBOTS_TXT_SIZE_LIMIT, docs/protocol.md#access-method). */
  readonly sizeLimit?: number;
  /** Return one LineInfo per line (default true); turn off to save memory when only diagnostics are wanted. */
  readonly lines?: boolean;
}

export type { LineInfo } from "./line-info.js";

export interface LintResult {
  /** One record per line (docs/protocol.md#lines); a final empty line after the last line ending is not listed. */
  readonly lines: readonly LineInfo[];
  /** Findings sorted by line, then column. */
  readonly diagnostics: readonly Diagnostic[];
  /** Number of findings per severity. */
  readonly counts: Readonly<Record<Severity, number>>;
  /** The parsed file, from the same pass. */
  readonly robots: RobotsTxt;
}

/** One linting run: the state the line visitor needs between lines. */
class Linter {
  readonly lines: LineInfo[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly #wantLines: boolean;
  /** file-over-limit (src/lint/limit-finding.ts). */
  readonly #limit: LimitFinding;
  /** The body is not a robots.txt at all (HTML, UTF-16, binary). */
  readonly #problem: BodyProblem | undefined;
  /** …then per-line findings would only be noise. */
  readonly #quiet: boolean;
  readonly #scan: ByteScan = { invalidUtf8: -1, bom: -1 };
  #inGroup = false;
  /** The last user-agent, allow or disallow line was a user-agent line. */
  #agentsOpen = false;
  /** Fixes that change a group's structure, and the caveat they then carry (src/lint/group-fix-notes.ts). */
  readonly #groupFixes = new GroupFixNotes();
  /** Rules since the last user-agent line. */
  #groupRules = 0;
  #lastStart = -1;
  #lastLine = 0;
  /** Lines with invalid UTF-8 outside rule values: reported once, as a count. */
  #otherInvalid = 0;
  #firstOtherInvalid = 0;
  #firstOtherInvalidCol = 1;
  /** rule-outside-group: rules before the first User-agent line. */
  #orphans = 0;
  #firstOrphan = { line: 0, name: "" };
  #lastOrphan = 0;
  #orphanNonEmpty = false;
  /** …and one of them is an Allow with a path. */
  #orphanAllow = false;
  /** A User-agent line whose key a byte-order mark hides (line number), or 0. */
  #hiddenAgent = 0;
  /** no-rules: directives that make a robots.txt (User-agent, rules, Sitemap), and other lines. */
  #robotsLines = 0;
  #otherLines = 0;
  #firstOtherLine = 0;

  constructor(wantLines: boolean, read: ReadLimit, problem: BodyProblem | undefined) {
    this.#limit = new LimitFinding(read);
    this.#wantLines = wantLines;
    this.#problem = problem;
    this.#quiet = problem !== undefined;
  }

  report(d: Diagnostic): void {
    this.diagnostics.push(d);
  }

  #at(
    id: Diagnostic["id"],
    severity: Severity,
    ev: LineEvent,
    column: number | undefined,
    message: string,
    fix: string,
  ): void {
    this.diagnostics.push(
      column === undefined
        ? { id, severity, line: ev.line, message, fix }
        : { id, severity, line: ev.line, column, message, fix },
    );
  }

  readonly onLine = (ev: LineEvent, b: Uint8Array): void => {
    this.#lastStart = ev.start;
    this.#lastLine = ev.line;
    if (this.#wantLines) this.lines.push(lineInfo(ev, b));
    this.#limit.onLine(ev, b);
    if (this.#quiet) return;
    if (ev.kind === "other" || ev.kind === "invalid") {
      if (this.#otherLines++ === 0) this.#firstOtherLine = ev.line;
    } else if (ev.kind !== "blank") this.#robotsLines++;
    const hidden = this.#checkBytes(ev, b);
    if (hidden && (ev.kind === "other" || ev.kind === "invalid")) return;
    switch (ev.kind) {
      case "user-agent":
        this.#groupFixes.userAgentLine(this.diagnostics, this.#lastLine);
        this.#inGroup = true;
        this.#agentsOpen = true;
        this.#groupRules = 0;
        this.#checkKey(ev, b);
        this.#checkUserAgent(ev, b);
        break;
      case "allow":
      case "disallow":
        this.#agentsOpen = false;
        this.#groupFixes.ruleLine(++this.#groupRules);
        this.#checkKey(ev, b);
        this.#checkRule(ev, b);
        break;
      case "sitemap":
        this.#checkKey(ev, b);
        this.#checkSitemap(ev, b);
        break;
      case "other":
        this.#checkOther(ev, b);
        break;
      case "invalid":
        this.#checkInvalid(ev, b);
        break;
      default:
    }
  };

  /** The finding just reported has a fix that makes this line an allow or disallow rule. */
  #addsRule(): void {
    if (this.#agentsOpen) this.#groupFixes.addsRule(this.diagnostics.length - 1);
  }

  /** The finding just reported has a fix that may remove this rule line. */
  #removesRule(): void {
    if (this.#inGroup && this.#groupRules === 1) {
      this.#groupFixes.removesOnlyRule(this.diagnostics.length - 1);
    }
  }

  /**
   * bom, invalid-utf8, nul-byte, line-too-long. Returns true when a BOM at the
   * start of the line hides its directive (already reported).
   */
  #checkBytes(ev: LineEvent, b: Uint8Array): boolean {
    const scan = this.#scan;
    scanBytes(b, ev.start, ev.rawEnd, scan);
    let a = ev.start;
    while (a < ev.end && isAsciiSpace(b[a]!)) a++;
    const twice = startsWithBytes(b, a, MOJIBAKE_BOM);
    let hidden = false;
    if (twice || (scan.bom === a && a < ev.end)) {
      const after = a + (twice ? MOJIBAKE_BOM.length : 3);
      const key = leadingKnownKey(b, after, ev.end);
      const canonical = key === undefined ? undefined : CANONICAL_KEY[key]!;
      hidden = canonical !== undefined;
      // Before a comment (or nothing) it does no harm.
      const harmless = after >= ev.end || b[after] === 0x23;
      if (key === "user-agent" && this.#hiddenAgent === 0 && !this.#inGroup) {
        this.#hiddenAgent = ev.line;
      }
      this.#at(
        "bom",
        hidden && key !== "sitemap" ? "error" : harmless ? "info" : "warning",
        ev,
        columnOf(b, ev.start, a),
        `this line starts with a byte-order mark${twice ? " that was encoded twice (it shows as ï»¿)" : ""}: crawlers read it as part of the key${canonical === undefined ? "" : `, so this ${canonical} line is ignored`}`,
        (twice
          ? "remove the characters ï»¿ (save the file as UTF-8 without a BOM)"
          : "remove it (files pasted together often carry one)") + restoredCaveat(canonical),
      );
      if (key === "allow" || key === "disallow") this.#addsRule();
    } else if (scan.bom >= 0) {
      this.#at(
        "bom",
        "warning",
        ev,
        columnOf(b, ev.start, scan.bom),
        "a byte-order mark (U+FEFF) in the middle of the file is ordinary data to crawlers: it becomes part of this line's key or value",
        "remove it (files pasted together often carry one)",
      );
    }
    if (scan.invalidUtf8 >= 0) {
      let inValue = -1;
      if ((ev.kind === "allow" || ev.kind === "disallow") && ev.valueEnd > ev.valueStart) {
        const inner: ByteScan = { invalidUtf8: -1, bom: -1 };
        scanBytes(b, ev.valueStart, ev.valueEnd, inner);
        inValue = inner.invalidUtf8;
      }
      if (inValue >= 0) {
        const byte = b[inValue]!.toString(16).toUpperCase();
        this.#at(
          "invalid-utf8",
          "warning",
          ev,
          columnOf(b, ev.start, inValue),
          `the pattern has a byte (0x${byte}) that is not UTF-8: it is matched as %${byte}, which the UTF-8 form of the URL never contains`,
          // A Latin-1 site's own URLs may carry %E9: then the rule matches
          // them today, and saving as UTF-8 would stop that.
          `if the site's URLs are UTF-8, save the file as UTF-8 (or write the path percent-encoded, e.g. %C3%A9 for é); but if they carry %${byte} as it is (a Latin-1 site), this rule matches them today and would no longer: then keep it${allowCaveat(ev.kind === "allow" ? "allow" : "disallow")}`,
        );
      } else {
        if (this.#otherInvalid === 0) {
          this.#firstOtherInvalid = ev.line;
          this.#firstOtherInvalidCol = columnOf(b, ev.start, scan.invalidUtf8);
        }
        this.#otherInvalid++;
      }
    }
    if (ev.nul >= 0) {
      this.#at(
        "nul-byte",
        "warning",
        ev,
        columnOf(b, ev.start, ev.nul),
        "a NUL byte ends the line for Google's parser: the rest of the line is ignored",
        `remove the NUL byte (the file may be in a binary or UTF-16 format)${nulCaveat(ev.kind)}`,
      );
    }
    if (ev.tooLong) {
      const directive = ev.kind !== "blank" && ev.kind !== "invalid";
      this.#at(
        "line-too-long",
        directive ? "warning" : "info",
        ev,
        columnOf(b, ev.start, ev.start + MAX_LINE_BYTES),
        `the line is ${ev.rawEnd - ev.start} bytes long; Google's parser keeps only the first ${MAX_LINE_BYTES} and drops the rest${directive ? ", so this directive is cut" : ""}`,
        "shorten the line (a wildcard can often replace a long list of paths)",
      );
    }
    return hidden;
  }

  /** accepted-typo and missing-colon for recognised keys (docs/protocol.md#key-and-value, #directive-keys). */
  #checkKey(ev: LineEvent, b: Uint8Array): void {
    const canonical = CANONICAL_KEY[ev.kind]!;
    const longer = ev.keyEnd - ev.keyStart > canonical.length;
    if (ev.missingColon) this.#missingColon(ev, b, canonical);
    if (!ev.typo && !longer) return;
    // Only now: most lines have nothing to report, and text costs (profiled: 4% of a corpus run).
    const written = snippet(b, ev.keyStart, ev.keyEnd, 40);
    const keyCol = columnOf(b, ev.start, ev.keyStart);
    if (ev.typo) {
      this.#at(
        "accepted-typo",
        "warning",
        ev,
        keyCol,
        `${quote(written)} is a misspelling of ${quote(canonical)} that Google accepts; crawlers that follow RFC 9309 strictly ignore this line`,
        `write ${quote(canonical)}`,
      );
    } else if (ev.keyEnd - ev.keyStart > canonical.length) {
      this.#at(
        "accepted-typo",
        "warning",
        ev,
        keyCol,
        `${quote(written)} is read as ${quote(canonical)} because Google matches keys by prefix; crawlers that follow RFC 9309 strictly ignore this line`,
        `write ${quote(canonical)}`,
      );
    }
  }

  #missingColon(ev: LineEvent, b: Uint8Array, canonical: string): void {
    const value = fullSnippet(b, ev.valueStart, ev.valueEnd);
    this.#at(
      "missing-colon",
      "warning",
      ev,
      columnOf(b, ev.start, ev.keyEnd),
      `no colon after ${quote(snippet(b, ev.keyStart, ev.keyEnd, 40))}: Google accepts whitespace instead, other crawlers ignore the line`,
      isQuotable(value) ? `write "${canonical}: ${value}"` : `write a colon after ${canonical}`,
    );
  }

  /** empty-user-agent and user-agent-token-cut (docs/protocol.md#groups, #choosing-rules). */
  #checkUserAgent(ev: LineEvent, b: Uint8Array): void {
    const vs = ev.valueStart;
    const ve = ev.valueEnd;
    if (ve === vs) {
      this.#at(
        "empty-user-agent",
        "warning",
        ev,
        undefined,
        "the user-agent line names no crawler: it matches none",
        `name the crawler it is for (e.g. "User-agent: Googlebot"), or write "User-agent: *" for all of them${STAR_CAVEAT}`,
      );
      return;
    }
    const col = columnOf(b, ev.start, vs);
    const written = snippet(b, vs, ve, 50);
    if (isGlobalAgent(b, vs, ve)) {
      if (ve === vs + 1) return;
      this.#at(
        "user-agent-token-cut",
        "info",
        ev,
        col,
        `${quote(written)} is read as "*": the text after the * is ignored`,
        'write "User-agent: *"',
      );
      return;
    }
    let t = vs;
    while (t < ve && isProductTokenChar(b[t]!)) t++;
    if (t === ve) return;
    const token = latin1(b, vs, t);
    const cutCol = columnOf(b, ev.start, t);
    if (token === "") {
      // A warning, not an error: the crawler's own parser may still match
      // the full name; under Google's reading the group names nobody.
      this.#at(
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
    const advice = describeCutAgent(written, token, String.fromCharCode(b[t]!));
    this.#at("user-agent-token-cut", advice.severity, ev, cutCol, advice.message, advice.fix);
  }

  /** rule-outside-group, empty-rule, pattern-without-leading-slash, dollar-not-at-end (docs/protocol.md#groups, #matching). */
  #checkRule(ev: LineEvent, b: Uint8Array): void {
    const vs = ev.valueStart;
    const ve = ev.valueEnd;
    const name = ruleKey(ev.kind === "allow" ? "allow" : "disallow");
    if (!this.#inGroup) {
      // Reported once, in finish(): one missing User-agent line is the cause.
      if (this.#orphans === 0) this.#firstOrphan = { line: ev.line, name };
      this.#orphans++;
      this.#lastOrphan = ev.line;
      if (vs !== ve) this.#orphanNonEmpty = true;
      if (vs !== ve && ev.kind === "allow") this.#orphanAllow = true;
    }
    if (vs === ve) {
      // An empty Disallow is the usual "allow everything"; group-checks.ts
      // reports it only when other rules make it pointless.
      if (ev.kind === "allow") {
        this.#at(
          "empty-rule",
          "warning",
          ev,
          undefined,
          "an Allow line without a path has no effect",
          'remove it, or give it the path it is meant to allow (e.g. "Allow: /public/"), which then allows that path over every Disallow rule that is not longer',
        );
        this.#removesRule();
      }
      return;
    }
    const first = b[vs]!;
    if (first !== 0x2f && first !== 0x2a) {
      const { message, fix } = describeRelativePattern(fullSnippet(b, vs, ve), name);
      this.#at(
        "pattern-without-leading-slash",
        "error",
        ev,
        columnOf(b, ev.start, vs),
        message,
        fix,
      );
      if (fix.includes("remove the line")) this.#removesRule();
    }
    for (let i = vs; i < ve; i++) {
      if (b[i] === 0x20 || b[i] === 0x09) {
        const { message, fix } = describeSpacedPattern(fullSnippet(b, vs, ve), name);
        this.#at("pattern-with-space", "error", ev, columnOf(b, ev.start, i), message, fix);
        break;
      }
    }
    for (let i = vs; i < ve - 1; i++) {
      if (b[i] === 0x24 /* $ */) {
        // "/*.php$?" meant an anchor; "/*$toc" or "/$%7Bname%7D/" is a real
        // "$" in the site's URLs (several corpus files), so only a note.
        let word = false;
        for (let k = i + 1; k < ve && !word; k++) word = isAlnum(b[k]!);
        this.#at(
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
        break;
      }
    }
  }

  #checkSitemap(ev: LineEvent, b: Uint8Array): void {
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
    this.#at(
      "sitemap-not-absolute",
      "warning",
      ev,
      columnOf(b, ev.start, vs),
      ve === vs
        ? "the Sitemap line has no URL"
        : `${quote(written)} is not an absolute http(s) URL: Google and Bing ignore relative sitemap locations`,
      sitemapFix(ve === vs ? "" : written),
    );
  }

  /** unsupported-directive, unknown-directive, missing-colon for other keys (docs/protocol.md#other-directives). */
  #checkOther(ev: LineEvent, b: Uint8Array): void {
    const ks = ev.keyStart;
    const ke = ev.keyEnd;
    if (!isPlausibleKey(b, ks, ke) || /^https?$/i.test(latin1(b, ks, Math.min(ke, ks + 6)))) {
      this.#checkInvalid(ev, b);
      return;
    }
    const lower = asciiLowerBytes(b, ks, ke);
    const written = escapeText(latin1(b, ks, ke));
    const support = UNUSED_KEYS.has(lower) ? DIRECTIVE_SUPPORT[lower] : undefined;
    if (support !== undefined) {
      if (ev.missingColon) this.#missingColon(ev, b, support.name);
      const outside =
        !this.#inGroup && lower === "crawl-delay"
          ? "; outside any group, even those crawlers do not know which crawler it is for"
          : "";
      this.#at(
        "unsupported-directive",
        support.severity,
        ev,
        columnOf(b, ev.start, ks),
        `${support.name} is not part of the robots.txt standard and Google ignores it: ${support.honouredBy}${outside}`,
        support.fix,
      );
      const delay =
        lower === "crawl-delay"
          ? describeCrawlDelay(latin1(b, ev.valueStart, ev.valueEnd))
          : undefined;
      if (delay !== undefined) {
        this.#at(
          "invalid-crawl-delay",
          "warning",
          ev,
          columnOf(b, ev.start, ev.valueStart),
          delay.message,
          delay.fix,
        );
      }
      return;
    }
    if (ev.missingColon) {
      // "Hello world": two words, no colon — prose, not a directive.
      this.#checkInvalid(ev, b);
      return;
    }
    const guess = closestKey(lower);
    const access = guess !== undefined && (ACCESS_KEYS as readonly string[]).includes(guess);
    this.#at(
      "unknown-directive",
      access ? "error" : "warning",
      ev,
      columnOf(b, ev.start, ks),
      guess !== undefined
        ? `unknown key ${quote(written)} (did you mean ${quote(guess)}?): crawlers ignore this line${access ? `, so this ${guess} line has no effect` : ""}`
        : `unknown key ${quote(written)}: crawlers ignore this line`,
      guess !== undefined
        ? `remove the line, or write ${quote(guess)}${restoredCaveat(guess)}`
        : "remove the line, or make it a comment with #",
    );
    if (guess === "Allow" || guess === "Disallow") this.#addsRule();
  }

  /** invalid-line: not a directive (docs/protocol.md#key-and-value). */
  #checkInvalid(ev: LineEvent, b: Uint8Array): void {
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
    let message: string;
    let fix: string;
    if (key === "user-agent" && invisible !== "" && this.#hiddenAgent === 0 && !this.#inGroup) {
      this.#hiddenAgent = ev.line;
    }
    if (canonical !== undefined && invisible !== "") {
      message = `an invisible character (${invisible}) before "${canonical}" makes the key unrecognisable, so crawlers ignore this line`;
      fix = `delete the invisible character at the start of the line${restoredCaveat(canonical)}`;
    } else if (canonical !== undefined) {
      message = `${quote(text)} is not a directive: ${canonical === "Allow" ? "an" : "a"} ${canonical} line needs "${canonical}:" followed by one value, so crawlers ignore it`;
      fix = `write "${canonical}: <value>", one value per line`;
    } else if (b[s] === 0x3a /* : */) {
      message = `${quote(text)} has no key before the colon, so crawlers ignore it`;
      fix = "add the key, or remove the line";
    } else if (/^(<<<<<<<|=======|>>>>>>>)/.test(text)) {
      message = `${quote(text)} is a leftover merge-conflict marker; crawlers ignore the line`;
      fix = "resolve the merge conflict and remove the markers";
    } else if (/^https?:\/\//i.test(text)) {
      message = `${quote(text)} is a URL without a key, so crawlers ignore it`;
      const whole = fullSnippet(b, s, e);
      fix = isQuotable(whole)
        ? `if it is a sitemap, write "Sitemap: ${whole}"`
        : 'if it is a sitemap, put "Sitemap: " in front of it';
    } else if (b[s] === 0x2f /* / */ && !/\s/.test(text)) {
      message = `${quote(text)} is a path without a key, so crawlers ignore it`;
      const whole = fullSnippet(b, s, e);
      // "/" alone would block the whole site: name the key, not the verdict.
      fix =
        text === "/" || text === "/*"
          ? `add the key it was meant to have: Disallow (block the whole site) or Allow (allow everything, overriding every Disallow rule that is not longer)`
          : `${isQuotable(whole) ? `write "Disallow: ${whole}"` : 'put "Disallow: " in front of it'} (or "Allow: …" to allow it, which overrides every Disallow rule that is not longer)`;
    } else {
      message = `${quote(text)} is not a robots.txt directive ("key: value"), so crawlers ignore it`;
      fix = "make it a comment by starting it with #, or remove it";
    }
    this.#at("invalid-line", access ? "error" : "warning", ev, undefined, message, fix);
    if (
      canonical === "Allow" ||
      canonical === "Disallow" ||
      /"(?:Allow|Disallow): |add the key it was meant/.test(fix)
    ) {
      this.#addsRule();
    }
  }

  /**
   * no-rules: text, yet no User-agent line, no rule and no sitemap (a JSON
   * error body, a page with its tags stripped): crawlers find nothing to
   * apply and crawl everything, which is seldom what was served it for.
   */
  #reportNoRules(body: Uint8Array, bomEnd: number): void {
    let i = bomEnd;
    while (i < body.length && isAsciiSpace(body[i]!)) i++;
    const json = body[i] === 0x7b || body[i] === 0x5b; // { or [
    const n = this.#otherLines;
    this.report({
      id: "no-rules",
      severity: "error",
      line: this.#firstOtherLine,
      message: `${json ? "this looks like JSON (often an error response), not a robots.txt" : "this is not a robots.txt"}: its ${n} line${n === 1 ? " is" : "s are"} no User-agent line, rule or sitemap, so crawlers find no rules in it and may crawl everything`,
      fix: "serve a plain-text robots.txt with User-agent groups at /robots.txt, or a 404 status if you have none",
    });
  }

  /** Whole-file findings, after the pass. */
  finish(body: Uint8Array, bomEnd: number, robots: RobotsTxt): void {
    // A final empty line after the last line ending is not a line (conformance README).
    if (this.#wantLines && this.#lastLine > 1 && this.#lastStart === body.length) this.lines.pop();
    if (this.#problem !== undefined) this.report({ ...this.#problem, severity: "error", line: 1 });
    const over = this.#limit.finding(body);
    if (over !== undefined) this.report(over);
    if (this.#quiet) return;
    if (this.#robotsLines === 0 && this.#otherLines > 0) this.#reportNoRules(body, bomEnd);
    if (this.#orphans > 0) {
      const { line, name } = this.#firstOrphan;
      const more = this.#orphans - 1;
      const hidden =
        this.#hiddenAgent > 0 && this.#hiddenAgent < line
          ? ` (line ${this.#hiddenAgent} would be one, but an invisible character hides its key)`
          : "";
      this.report({
        id: "rule-outside-group",
        severity: this.#orphanNonEmpty ? "error" : "warning",
        line,
        message: `this ${name} line${more > 0 ? ` and ${more} more rule${more > 1 ? "s" : ""} up to line ${this.#lastOrphan}` : ""} come${more > 0 ? "" : "s"} before any User-agent line${hidden}, so ${more > 0 ? "they belong" : "it belongs"} to no group and no crawler applies ${more > 0 ? "them" : "it"}`,
        fix:
          hidden !== ""
            ? `remove the invisible character (or byte-order mark) at the start of line ${this.#hiddenAgent}${AGENT_CAVEAT}`
            : `add a "User-agent: *" line (or the crawler's name) above it${this.#orphanAllow ? "; note that its Allow lines then apply to every crawler that follows the * group, which may allow them more" : ""}`,
      });
    }
    if (bomEnd > 0) this.report(bomFinding(bomEnd));
    if (this.#otherInvalid > 0) {
      this.report({
        id: "invalid-utf8",
        severity: "info",
        line: this.#firstOtherInvalid,
        column: this.#firstOtherInvalidCol,
        message: `${this.#otherInvalid} line${this.#otherInvalid > 1 ? "s have" : " has"} bytes that are not UTF-8 (first here); outside rule paths this changes nothing for crawlers, but the file is probably in a legacy encoding`,
        fix: "save the file as UTF-8",
      });
    }
    checkGroups(robots, (d) => this.report(d));
    checkUsage(robots, (d) => this.report(d));
  }
}

function severityOrder(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || (a.column ?? 0) - (b.column ?? 0);
}

/**
 * Lint a robots.txt body. A string means its UTF-8 encoding; pass the raw
 * bytes when you have them. Returns the line records, the findings and the
 * parsed file; never throws on any body.
 */
export function lintRobotsTxt(body: Uint8Array | string, options: LintOptions = {}): LintResult {
  const profile = checkProfile(options.profile);
  const limit = options.sizeLimit ?? ROBOTS_TXT_SIZE_LIMIT;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new RobotsError(
      "invalid-option",
      `sizeLimit must be a positive integer number of bytes, got ${String(limit)}`,
    );
  }
  const bytes = toBytes(body);
  const bomEnd = bomPrefixLength(bytes);
  const problem = bodyProblem(bytes, bomEnd);
  const view = crawlerView(bytes, limit, profile);
  const read: ReadLimit = {
    limit,
    kept: view.truncated ? view.bytes.length : -1,
    appliedCut: view.cut?.applied === true ? view.cut.start : -1,
    fate: cutLineFate(bytes, view),
  };
  let linter = new Linter(options.lines !== false, read, problem);
  let robots = parseRobotsTxt(bytes, { profile }, { onLine: linter.onLine });
  if (
    (problem?.id === "binary-instead-of-robots" || problem?.id === "html-instead-of-robots") &&
    robots.groups.length > 0
  ) {
    // Control bytes or markup, yet real User-agent lines (a robots.txt
    // padded with NUL runs, a <script> pasted above the groups): crawlers
    // skip the lines that are no directive and apply the groups, so lint it
    // as text after all. Rare, so a second pass.
    linter = new Linter(options.lines !== false, read, undefined);
    robots = parseRobotsTxt(bytes, { profile }, { onLine: linter.onLine });
    if (problem.id === "html-instead-of-robots") {
      linter.report(htmlWithGroupsFinding(robots.groups.length));
    }
  }
  linter.finish(bytes, bomEnd, robots);
  const diagnostics = linter.diagnostics
    .sort(severityOrder)
    .map((d) => ({ ...d, message: asSentence(d.message), fix: asSentence(d.fix) }));
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return { lines: linter.lines, diagnostics, counts, robots };
}
