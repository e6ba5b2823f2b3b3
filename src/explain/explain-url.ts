/**
 * Why a URL is allowed or disallowed for a crawler (docs/protocol.md#deciding-line): the verdict,
 * the groups that applied and why (#choosing-rules), the deciding line in
 * context with its pattern as written and as normalised (#rule-values), the
 * other matching rules and why they lost (#matching), and notes when a
 * lenient reading (typos, missing colon, a cut agent token) or the size
 * limit (#size-limit) changed the outcome. Library code:
 * never throws on any file or URL, and no `node:` imports.
 */
import { compileMatcher, type MatchedRule, type RobotsMatcher } from "../match/compile.js";
import { matchesPattern } from "../match/pattern.js";
import type { GroupSource } from "../match/select-groups.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Group } from "../parse/types.js";
import { disallows } from "../protocol/empty-rule.js";
import { MAX_LINE_BYTES } from "../protocol/line-length.js";
import { requestForm } from "../protocol/percent-encoding.js";
import { asciiLower, isProductTokenChar, sameAgent } from "../protocol/product-token.js";
import { ruleText } from "../protocol/rule-text.js";
import { describeLimit, groupDigits } from "../protocol/size-limit.js";
import { editLines, type RobotsDocument } from "./document.js";

/** Why a matching rule did not decide. */
export type LossReason =
  /** Its pattern is shorter than the deciding one (docs/protocol.md#matching). */
  | "shorter"
  /** Same length, and on a tie allow wins (docs/protocol.md#matching). */
  | "tie-allow-wins"
  /** Same length and kind: the earlier line is reported (docs/protocol.md#deciding-line). */
  | "earlier-line-wins"
  /** 1996 draft: the first matching rule in file order decides (docs/protocol.md#profiles). */
  | "first-match-wins";

/** A rule that matched the URL but did not decide, and why. */
export interface LosingRule {
  /** The rule that lost. */
  readonly rule: MatchedRule;
  /** Why it lost. */
  readonly reason: LossReason;
  /** The reason in words. */
  readonly why: string;
}

/** The kind of an ExplainNote. */
export type NoteId =
  | "typo"
  | "missing-colon"
  | "agent-token-cut"
  | "size-limit"
  | "line-too-long"
  | "rule-outside-group"
  | "url-not-encoded"
  | "case-sensitive";

/**
 * Something the crawler's reading depends on that a reader may miss (a typo read as intended, a cut
 * line…).
 */
export interface ExplainNote {
  /** What kind of note it is. */
  readonly id: NoteId;
  /** The line the note is about (0 when it is about the URL). */
  readonly line: number;
  /** The note in words. */
  readonly message: string;
  /** The verdict the file would give if the note's cause were absent, when that differs. */
  readonly otherwise?: { readonly allowed: boolean; readonly line: number };
}

/** A group that applied to the agent, with its user-agent lines. */
export interface AppliedGroup {
  /** The group's index in the file. */
  readonly index: number;
  /** The group's user-agent lines. */
  readonly agents: readonly {
    readonly line: number;
    readonly value: string;
    readonly token: string;
    /** This line is the one that selected the group. */
    readonly selects: boolean;
  }[];
}

/** Which groups applied to the agent, and why (docs/protocol.md#choosing-rules). */
export interface GroupExplanation {
  /** Named for the agent, fallen back to `*`, or none. */
  readonly source: GroupSource;
  /** The groups that applied. */
  readonly groups: readonly AppliedGroup[];
  /** First lines of `*` groups ignored because the crawler is named (docs/protocol.md#choosing-rules). */
  readonly ignoredGlobal: readonly number[];
  /** The choice in words. */
  readonly summary: string;
}

/** A line of the file shown around the deciding line. */
export interface ContextLine {
  /** Its line number. */
  readonly line: number;
  /** Its text, escaped for display. */
  readonly text: string;
  /** This is the deciding line. */
  readonly deciding: boolean;
}

/**
 * Why a URL is allowed or disallowed for an agent: the groups, the deciding line, the rules that
 * lost, notes.
 */
export interface UrlExplanation {
  /** The URL as given. */
  readonly url: string;
  /** The path the rules were matched against (docs/protocol.md#matching). */
  readonly path: string;
  /** The agent's product token. */
  readonly agent: string;
  /** May the agent fetch the URL? */
  readonly allowed: boolean;
  /** The deciding line, 0 when no rule matched (docs/protocol.md#deciding-line). */
  readonly line: number;
  /** Which groups applied, and why. */
  readonly groups: GroupExplanation;
  /** The deciding rule, or null. */
  readonly rule: MatchedRule | null;
  /** Why that rule decides, in words. */
  readonly decidedBecause: string;
  /** The deciding line with a few lines around it and the group's first line. */
  readonly context: readonly ContextLine[];
  /** Other matching rules, best first, and why each lost. */
  readonly others: readonly LosingRule[];
  /** What a reader of the file may miss about this verdict. */
  readonly notes: readonly ExplainNote[];
}

/** Facts about the whole file, shown once before the per-URL explanations. */
export interface FileNote {
  /** The one note about a whole file: it is cut at the size limit. */
  readonly id: "size-limit";
  /** The line the cut falls in. */
  readonly line: number;
  /** The note in words. */
  readonly message: string;
}

/** Explains URLs for one agent against one document (createExplainer). */
export interface Explainer {
  /** The agent's product token. */
  readonly agent: string;
  /** Notes about the file itself, the same for every URL. */
  readonly fileNotes: readonly FileNote[];
  /** Why `url` is allowed or disallowed. */
  explain(url: string): UrlExplanation;
}

const CONTEXT_AROUND = 2;
/**
 * Bound on the "what if" re-parses per agent (each is one parse of the
 * file): at most 64, and at most 16 MiB re-parsed in all, so that a file
 * with hundreds of typos is explained in bounded time
 * (docs/performance-decisions.md, Linting and text).
 */
const MAX_WHAT_IFS = 64;
const WHAT_IF_BYTES = 16 * 1024 * 1024;
/** An agent token no crawler sends: stands in for "this line names someone else". */
const UNMATCHED_TOKEN = "robots-explain-unmatched-agent";

interface WhatIf {
  readonly id: NoteId;
  readonly line: number;
  readonly message: (otherwise: { allowed: boolean; line: number }) => string;
  readonly matcher: () => RobotsMatcher;
  /** The line edit this variant makes (null blanks the line). */
  readonly edit: readonly [number, string | null];
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

function verdictText(allowed: boolean, line: number): string {
  return `${allowed ? "allowed" : "disallowed"} (${line === 0 ? "no rule matched" : `line ${line}`})`;
}

function lineList(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  return `lines ${lines.slice(0, -1).join(", ")} and ${lines[lines.length - 1]}`;
}

function describeGroups(robots: RobotsTxt, m: RobotsMatcher): GroupExplanation {
  const agent = m.agent;
  const groups: AppliedGroup[] = m.groups.map((index) => {
    const g = robots.groups[index] as Group;
    return {
      index,
      agents: g.agents.map((a) => ({
        line: a.line,
        value: a.value,
        token: a.token,
        selects: m.source === "named" ? !a.global && sameAgent(a.token, agent) : a.global,
      })),
    };
  });
  const selecting = groups.map((g) => g.agents.find((a) => a.selects)?.line ?? 0);
  const ignoredGlobal: number[] = [];
  if (m.source === "named") {
    for (const g of robots.groups) {
      if (m.groups.includes(g.index)) continue;
      const star = g.agents.find((a) => a.global);
      if (star) ignoredGlobal.push(star.line);
    }
  }
  let summary: string;
  const name = JSON.stringify(agent);
  if (m.source === "named") {
    summary =
      selecting.length === 1
        ? `${name} is named on line ${selecting[0]}`
        : `${name} is named in ${selecting.length} groups, merged: ${lineList(selecting)}`;
    if (ignoredGlobal.length > 0) {
      summary += `; the * group${ignoredGlobal.length > 1 ? "s" : ""} (${lineList(ignoredGlobal)}) ${ignoredGlobal.length > 1 ? "are" : "is"} ignored for it`;
    }
  } else if (m.source === "global") {
    summary =
      selecting.length === 1
        ? `${name} is not named in any group: fell back to * (line ${selecting[0]})`
        : `${name} is not named in any group: fell back to *, ${selecting.length} groups merged (${lineList(selecting)})`;
  } else {
    summary = `no group names ${name} and there is no * group: no rule applies`;
  }
  return { source: m.source, groups, ignoredGlobal, summary };
}

function lossOf(d: MatchedRule, o: MatchedRule, legacy: boolean): LosingRule {
  if (legacy) {
    return {
      rule: o,
      reason: "first-match-wins",
      why: `the 1996 draft takes the first match in file order, and line ${d.line} comes first`,
    };
  }
  if (o.priority < d.priority) {
    return {
      rule: o,
      reason: "shorter",
      why: `shorter: ${o.priority} < ${d.priority} octets (the longest match wins)`,
    };
  }
  if (o.kind !== d.kind) {
    return {
      rule: o,
      reason: "tie-allow-wins",
      why: `same length (${o.priority} octets): a tie goes to allow`,
    };
  }
  return {
    rule: o,
    reason: "earlier-line-wins",
    why: `same length and kind: the earlier line (${d.line}) is the deciding one`,
  };
}

function decidedBecause(d: MatchedRule | null, others: number, legacy: boolean): string {
  if (d === null) return "no rule matched the path, so it is allowed";
  if (d.kind === "disallow" && !disallows(d.kind, d.priority)) {
    return "an empty Disallow matches every path with priority 0 and disallows nothing";
  }
  if (legacy) return "the first matching rule in file order decides (1996 draft)";
  const via = d.viaIndexHtml
    ? ` (through Google's index.html rule: ${d.pattern} also allows ${d.matchedPattern})`
    : "";
  if (others === 0) return `the only matching rule${via}`;
  return `the longest matching pattern (${d.priority} octets)${via}`;
}

/** Printable form of a line: control characters shown as \xNN, very long lines cut. */
export function printable(text: string, max = 160): string {
  let s = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => {
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  s = s.replace(/\t/g, "  ");
  return s.length > max ? `${s.slice(0, max)}… (${text.length} characters)` : s;
}

function contextLines(doc: RobotsDocument, line: number, groupLine: number): ContextLine[] {
  const out: ContextLine[] = [];
  const from = Math.max(1, line - CONTEXT_AROUND);
  // The empty "line" after a final line ending is no line a person sees.
  const last =
    doc.lineCount > 1 && doc.lineText(doc.lineCount) === "" ? doc.lineCount - 1 : doc.lineCount;
  const to = Math.min(last, line + CONTEXT_AROUND);
  const push = (n: number) =>
    out.push({ line: n, text: printable(doc.lineText(n) ?? ""), deciding: n === line });
  if (groupLine > 0 && groupLine < from) push(groupLine);
  for (let n = from; n <= to; n++) push(n);
  return out;
}

/**
 * The "what if" variants worth trying for this agent: each lenient reading
 * undone on its own, each cut agent token read as the author meant it.
 */
function whatIfs(doc: RobotsDocument, agent: string): WhatIf[] {
  const robots = doc.robots;
  const out: WhatIf[] = [];
  const limit = Math.max(
    4,
    Math.min(MAX_WHAT_IFS, Math.floor(WHAT_IF_BYTES / Math.max(1, doc.view.length))),
  );
  const blank = (line: number) =>
    lazy(() => compileMatcher(editLines(doc, new Map([[line, null]])), agent));
  const replace = (line: number, text: string) =>
    lazy(() => compileMatcher(editLines(doc, new Map([[line, text]])), agent));
  if (robots.profile === "google") {
    // Typos and missing colons are Google's leniency (docs/protocol.md#key-and-value, #directive-keys);
    // RFC 9309 parsers ignore such lines, which is what blanking them does.
    for (let n = 1; n <= robots.lineCount && out.length < limit; n++) {
      const rec = robots.lineRecord(n)!;
      if (rec.kind !== "user-agent" && rec.kind !== "allow" && rec.kind !== "disallow") continue;
      if (!rec.typo && !rec.missingColon) continue;
      const text = printable(doc.lineText(n) ?? "", 60);
      const what = rec.typo
        ? `line ${n} "${text}" has a misspelt key that Google accepts as ${rec.kind}`
        : `line ${n} "${text}" has no colon; Google reads it as ${rec.kind} anyway`;
      out.push({
        id: rec.typo ? "typo" : "missing-colon",
        line: n,
        message: (o) =>
          `${what}. Parsers that ignore the line (RFC 9309) would answer ${verdictText(o.allowed, o.line)}`,
        matcher: blank(n),
        edit: [n, null],
      });
    }
  }
  // Agent tokens stop at the first character that is not a token character (docs/protocol.md#groups).
  for (const g of robots.groups) {
    for (const a of g.agents) {
      if (a.global || a.value === a.token || out.length >= limit) continue;
      const rest = a.value.slice(a.token.length);
      const read = a.token === "" ? "an empty token that matches no crawler" : `"${a.token}"`;
      if (sameAgent(a.token, agent)) {
        // "Googlebot/2.1" means Googlebot: the cut is what the author meant.
        if (rest.startsWith("/")) continue;
        out.push({
          id: "agent-token-cut",
          line: a.line,
          message: (o) =>
            `line ${a.line} "User-agent: ${printable(a.value, 60)}" is read as ${read}, so this group applies to ${agent}; if it did not, the verdict would be ${verdictText(o.allowed, o.line)}`,
          matcher: replace(a.line, `User-agent: ${UNMATCHED_TOKEN}`),
          edit: [a.line, `User-agent: ${UNMATCHED_TOKEN}`],
        });
      } else if (mentions(a.value, agent)) {
        out.push({
          id: "agent-token-cut",
          line: a.line,
          message: (o) =>
            `line ${a.line} "User-agent: ${printable(a.value, 60)}" mentions ${agent} but is read as ${read}, so this group does not apply to ${agent}; written as "User-agent: ${agent}" it would, and the verdict would be ${verdictText(o.allowed, o.line)}`,
          matcher: replace(a.line, `User-agent: ${agent}`),
          edit: [a.line, `User-agent: ${agent}`],
        });
      }
    }
  }
  return out;
}

/** Does `value` contain `agent` as a whole token (ASCII case-insensitive, as agents compare)? */
function mentions(value: string, agent: string): boolean {
  if (agent === "") return false;
  const v = asciiLower(value);
  const a = asciiLower(agent);
  const isTok = (i: number) => i >= 0 && i < v.length && isProductTokenChar(v.charCodeAt(i));
  for (let i = v.indexOf(a); i >= 0; i = v.indexOf(a, i + 1)) {
    if (!isTok(i - 1) && !isTok(i + a.length)) return true;
  }
  return false;
}

/** Where a crawler's reading of `doc` ends, and what became of the line the limit cuts. */
export function readUpTo(doc: RobotsDocument): string {
  const c = doc.cutLine;
  const of = `of ${doc.lineCount}`;
  if (c === null)
    return `whose last line is line ${doc.lastLineRead} ${of}: everything after is ignored`;
  const upTo = c.applied
    ? `which end inside line ${c.line} ${of}`
    : `whose last complete line is line ${doc.lastLineRead} ${of}`;
  return `${upTo}; line ${c.line}, which the limit cuts, ${c.fate}, and everything after it is ignored`;
}

function fileNotes(doc: RobotsDocument): FileNote[] {
  if (doc.full === null) return [];
  return [
    {
      id: "size-limit",
      line: doc.lastLineRead,
      message: `the file is ${groupDigits(doc.body.length)} bytes; crawlers read only the first ${describeLimit(doc.sizeLimit)}, ${readUpTo(doc)}`,
    },
  ];
}

/**
 * Notes about the patterns behind a verdict: a deciding or losing rule cut at
 * the line limit, a matching rule outside any group, and (outside
 * legacy1996) an applied rule that would match if case were ignored.
 */
function patternNotes(
  robots: RobotsTxt,
  decisive: readonly (MatchedRule | null)[],
  path: string,
  legacy: boolean,
  appliedRules: Group["rules"],
): ExplainNote[] {
  const notes: ExplainNote[] = [];
  for (const r of decisive) {
    if (r === null) continue;
    if (robots.lineRecord(r.line)?.tooLong) {
      notes.push({
        id: "line-too-long",
        line: r.line,
        message: `line ${r.line} is longer than ${groupDigits(MAX_LINE_BYTES)} bytes: only its first ${groupDigits(MAX_LINE_BYTES)} bytes are read, so its pattern is cut there`,
      });
    }
  }
  for (const r of robots.orphanRules) {
    if (r.pattern !== "" && matchesPattern(r.pattern, path)) {
      notes.push({
        id: "rule-outside-group",
        line: r.line,
        message: `line ${r.line} "${ruleText(r)}" matches but comes before any User-agent line, so it applies to no crawler`,
      });
    }
  }
  if (!legacy) {
    for (const r of appliedRules) {
      if (r.pattern === "" || matchesPattern(r.pattern, path)) continue;
      if (r.pattern.toLowerCase() !== r.pattern || path.toLowerCase() !== path) {
        if (matchesPattern(r.pattern.toLowerCase(), path.toLowerCase())) {
          notes.push({
            id: "case-sensitive",
            line: r.line,
            message: `line ${r.line} "${ruleText(r)}" would match if case were ignored, but paths are case-sensitive`,
          });
        }
      }
    }
  }
  return notes;
}

/** Build an explainer for one agent; reuse it for every URL. */
export function createExplainer(doc: RobotsDocument, agent: string): Explainer {
  const robots = doc.robots;
  const legacy = robots.profile === "legacy1996";
  const m = compileMatcher(robots, agent);
  const groups = describeGroups(robots, m);
  const variants = whatIfs(doc, agent);
  const combined =
    variants.length < 2
      ? null
      : lazy(() => compileMatcher(editLines(doc, new Map(variants.map((w) => w.edit))), agent));
  const fullMatcher = doc.full === null ? null : compileMatcher(doc.full, agent);
  const appliedRules = m.groups.flatMap((i) => robots.groups[i]?.rules ?? []);

  function explain(url: string): UrlExplanation {
    const v = m.check(url);
    const all = m.matches(url);
    const d = v.rule;
    const others: LosingRule[] = [];
    if (d !== null) {
      for (const o of all) {
        if (o.line === d.line && o.matchedPattern === d.matchedPattern) continue;
        others.push(lossOf(d, o, legacy));
      }
    }
    const notes: ExplainNote[] = [];
    const differs = (o: { allowed: boolean; line: number }) =>
      o.allowed !== v.allowed || o.line !== v.line;
    // All variants applied at once first: when that changes nothing (the
    // common case), no variant alone is re-parsed. (Two edits that exactly
    // cancel out would hide both notes; that needs contrived files.)
    const anyChange =
      combined === null ||
      ((alt) => differs({ allowed: alt.allowed, line: alt.line }))(combined().check(url));
    for (const w of anyChange ? variants : []) {
      const alt = w.matcher().check(url);
      const o = { allowed: alt.allowed, line: alt.line };
      if (differs(o)) notes.push({ id: w.id, line: w.line, message: w.message(o), otherwise: o });
    }
    if (fullMatcher !== null) {
      const alt = fullMatcher.check(url);
      if (alt.line !== v.line || alt.allowed !== v.allowed) {
        const past = alt.line > doc.lastLineRead;
        const limit = describeLimit(doc.sizeLimit);
        const r = alt.rule;
        const message =
          past && r
            ? `line ${alt.line} "${ruleText(r)}" lies past the ${limit} crawlers read; reading the whole file, it would decide: ${alt.allowed ? "allowed" : "disallowed"}`
            : `reading the whole file instead of the first ${limit} would change the verdict to ${verdictText(alt.allowed, alt.line)}`;
        notes.push({
          id: "size-limit",
          line: alt.line,
          message,
          otherwise: { allowed: alt.allowed, line: alt.line },
        });
      }
    }
    notes.push(
      ...patternNotes(robots, [d, ...others.map((o) => o.rule)], v.path, legacy, appliedRules),
    );
    const encoded = requestForm(url);
    if (encoded !== url) {
      const alt = m.check(encoded);
      if (differs({ allowed: alt.allowed, line: alt.line })) {
        notes.push({
          id: "url-not-encoded",
          line: 0,
          message: `the URL is matched exactly as written, not percent-encoded; as ${encoded} (how crawlers request it) the verdict is ${verdictText(alt.allowed, alt.line)}`,
          otherwise: { allowed: alt.allowed, line: alt.line },
        });
      }
    }
    const groupLine =
      d === null ? 0 : (groups.groups.find((g) => g.index === d.group)?.agents[0]?.line ?? 0);
    return {
      url,
      path: v.path,
      agent,
      allowed: v.allowed,
      line: v.line,
      groups,
      rule: d,
      decidedBecause: decidedBecause(d, others.length, legacy),
      context: d === null ? [] : contextLines(doc, d.line, groupLine),
      others,
      notes,
    };
  }

  return { agent, fileNotes: fileNotes(doc), explain };
}

/** One-shot form: explain `url` for `agent` under `doc`. */
export function explainUrl(doc: RobotsDocument, agent: string, url: string): UrlExplanation {
  return createExplainer(doc, agent).explain(url);
}
