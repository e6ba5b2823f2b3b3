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
import { isAsciiSpace, toBytes } from "../parse/bytes.js";
import { crawlerView, cutLineFate } from "../parse/crawler-view.js";
import { parseRobotsTxtWith, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { bomPrefixLength } from "../protocol/byte-order-mark.js";
import { checkProfile, type Profile } from "../protocol/profile.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import { AGENT_CAVEAT } from "./advice.js";
import { type ByteReporter, checkBytes } from "./byte-checks.js";
import { type BodyProblem, bodyProblem, bomFinding, htmlWithGroupsFinding } from "./byte-probes.js";
import type { Diagnostic, LintEdit, Severity } from "./diagnostics.js";
import { checkGroups } from "./group-checks.js";
import { GroupFixNotes } from "./group-fix-notes.js";
import { LimitFinding, type ReadLimit } from "./limit-finding.js";
import { checkKey, checkRule, checkSitemap, checkUserAgent } from "./line-checks.js";
import { insertBefore } from "./line-edits.js";
import { type LineInfo, lineInfo } from "./line-info.js";
import { checkInvalid, checkOther } from "./other-lines.js";
import { asSentence, type ByteScan } from "./text.js";
import { checkUsage } from "./usage-checks.js";

/** Options of lintRobotsTxt. */
export interface LintOptions {
  /** Default `google` (docs/protocol.md#profiles). */
  readonly profile?: Profile;
  /** Bytes crawlers read; content past it is reported (default ROBOTS_TXT_SIZE_LIMIT, docs/protocol.md#access-method). */
  readonly sizeLimit?: number;
  /** Return one LineInfo per line (default true); turn off to save memory when only diagnostics are wanted. */
  readonly lines?: boolean;
}

export type { LineInfo } from "./line-info.js";

/** What lintRobotsTxt found, and how it read every line. */
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
class Linter implements ByteReporter {
  readonly lines: LineInfo[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly #wantLines: boolean;
  /** file-over-limit (src/lint/limit-finding.ts). */
  readonly #limit: LimitFinding;
  /** The body is not a robots.txt at all (HTML, UTF-16, binary). */
  readonly #problem: BodyProblem | undefined;
  /** …then per-line findings would only be noise. */
  readonly #quiet: boolean;
  readonly scan: ByteScan = { invalidUtf8: -1, bom: -1 };
  inGroup = false;
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

  at(
    id: Diagnostic["id"],
    severity: Severity,
    ev: LineEvent,
    column: number | undefined,
    message: string,
    fix: string,
    edit?: LintEdit,
  ): void {
    const d: Diagnostic =
      column === undefined
        ? { id, severity, line: ev.line, message, fix }
        : { id, severity, line: ev.line, column, message, fix };
    this.diagnostics.push(edit === undefined ? d : { ...d, edit });
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
    const hidden = checkBytes(this, ev, b);
    if (hidden && (ev.kind === "other" || ev.kind === "invalid")) return;
    switch (ev.kind) {
      case "user-agent":
        this.#groupFixes.userAgentLine(this.diagnostics, this.#lastLine);
        this.inGroup = true;
        this.#agentsOpen = true;
        this.#groupRules = 0;
        checkKey(this, ev, b);
        checkUserAgent(this, ev, b);
        break;
      case "allow":
      case "disallow":
        this.#agentsOpen = false;
        this.#groupFixes.ruleLine(++this.#groupRules);
        checkKey(this, ev, b);
        checkRule(this, ev, b);
        break;
      case "sitemap":
        checkKey(this, ev, b);
        checkSitemap(this, ev, b);
        break;
      case "other":
        checkOther(this, ev, b);
        break;
      case "invalid":
        checkInvalid(this, ev, b);
        break;
      default:
    }
  };

  addsRule(): void {
    if (this.#agentsOpen) this.#groupFixes.addsRule(this.diagnostics.length - 1);
  }

  removesRule(): void {
    if (this.inGroup && this.#groupRules === 1) {
      this.#groupFixes.removesOnlyRule(this.diagnostics.length - 1);
    }
  }

  hidesAgent(line: number): void {
    if (this.#hiddenAgent === 0) this.#hiddenAgent = line;
  }

  otherInvalid(line: number, column: number): void {
    if (this.#otherInvalid++ === 0) {
      this.#firstOtherInvalid = line;
      this.#firstOtherInvalidCol = column;
    }
  }

  orphanRule(ev: LineEvent, name: string, empty: boolean): void {
    // Reported once, in finish(): one missing User-agent line is the cause.
    if (this.#orphans === 0) this.#firstOrphan = { line: ev.line, name };
    this.#orphans++;
    this.#lastOrphan = ev.line;
    if (!empty) this.#orphanNonEmpty = true;
    if (!empty && ev.kind === "allow") this.#orphanAllow = true;
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
        ...(hidden === "" ? { edit: insertBefore(line, ["User-agent: *"]) } : {}),
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
  let robots = parseRobotsTxtWith(bytes, { profile }, { onLine: linter.onLine });
  if (
    (problem?.id === "binary-instead-of-robots" || problem?.id === "html-instead-of-robots") &&
    robots.groups.length > 0
  ) {
    // Control bytes or markup, yet real User-agent lines (a robots.txt
    // padded with NUL runs, a <script> pasted above the groups): crawlers
    // skip the lines that are no directive and apply the groups, so lint it
    // as text after all. Rare, so a second pass.
    linter = new Linter(options.lines !== false, read, undefined);
    robots = parseRobotsTxtWith(bytes, { profile }, { onLine: linter.onLine });
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
