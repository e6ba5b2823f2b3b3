/**
 * The AI usage preferences that apply to one crawler and one URL: from the
 * robots.txt (Content-Usage rules matched by path, Content-Signal lines of
 * the crawler's groups) and from the response's `Content-Usage` and
 * `Content-Signal` header fields, each with where it came from.
 *
 * Combining follows draft-ietf-aipref-vocab-08 §5.1: for each category, any
 * statement that disallows wins, else any that allows, else no preference.
 * No source outranks another, so adding a statement can never loosen a
 * result, and header order changes nothing. Content-Signal statements
 * combine the same way among themselves. The two vocabularies are kept
 * apart: their categories are defined differently, so neither is mapped
 * onto the other.
 *
 * A path robots.txt disallows has no usage preferences (attach-05 §3.1 for
 * Content-Usage; Content-Signal is read the same way): its page is never
 * fetched, so no header is seen either.
 */
import { RobotsError } from "../errors.js";
import { compileMatcher } from "../match/compile.js";
import type { RobotsMatcher } from "../match/matcher.js";
import { type CompiledPattern, compiledMatches, compilePattern } from "../match/pattern.js";
import type { GroupSource } from "../match/select-groups.js";
import { readPath } from "../match/url-path.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import {
  type AgentUsageLines,
  type ContentSignalLine,
  type ContentUsageRule,
  usageLinesFor,
} from "./robots-rules.js";
import {
  AIPREF_VOCABULARIES,
  type AiprefVocabulary,
  CONTENT_SIGNAL_LABELS,
  type ContentSignalLabel,
  categoryPreference,
  DEFAULT_VOCABULARY,
  type Preference,
  type ReadStatement,
  readContentSignal,
  readUsageStatement,
} from "./vocabulary.js";

/** Where a statement came from. */
export type UsageOrigin =
  | {
      readonly via: "robots.txt";
      readonly directive: "content-usage" | "content-signal";
      readonly line: number;
      /** Index of its group in the file. */
      readonly group: number;
      /** The Content-Usage path as written; null for none (and for Content-Signal). */
      readonly path: string | null;
    }
  | { readonly via: "header"; readonly field: "Content-Usage" | "Content-Signal" };

/** One statement of preference that applies, and where it came from. */
export interface UsageStatement extends ReadStatement {
  /** Content-Usage or Content-Signal. */
  readonly kind: "content-usage" | "content-signal";
  /** Where it came from. */
  readonly origin: UsageOrigin;
  /** The statement as written. */
  readonly text: string;
}

/** One category, combined over every statement that applies. */
export interface CategoryResult {
  /** The preference for the category. */
  readonly preference: Preference;
  /** The statements that gave this preference (none for unknown). */
  readonly from: readonly UsageOrigin[];
}

/** Response header field lines: pairs (any name case) or a record of values. */
export type HeaderInput =
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What usagePreferences reads: robots.txt, the URL, the agent and response headers. */
export interface UsageQuery {
  /** The parsed robots.txt of the URL's origin; omit when only headers are known. */
  readonly robots?: RobotsTxt | null;
  /** The crawler's product token, compared as for allow/disallow (docs/protocol.md#choosing-rules). Needed with `robots`. */
  readonly agent?: string;
  /** The URL (or its path) the preferences are for. Needed with `robots`. */
  readonly url?: string;
  /** The crawl verdict when already known (the client's check); else computed from `robots`. */
  readonly allowed?: boolean;
  /** The response's header fields. */
  readonly headers?: HeaderInput;
  /** Default `vocab-08`. */
  readonly vocabulary?: AiprefVocabulary;
}

/** What robots.txt says about the URL for the agent. */
export interface RobotsUsage {
  /** The agent's product token. */
  readonly agent: string;
  /** The path matched (docs/protocol.md#matching). */
  readonly path: string;
  /** May the crawler fetch it? When not, robots.txt attaches no preferences to it. */
  readonly allowed: boolean;
  /** Why its groups applied. */
  readonly source: GroupSource;
  /** Line of each Content-Usage rule of the crawler's groups, and of those that matched. */
  readonly contentUsageLines: readonly number[];
  /** Lines of the Content-Usage rules that matched the path. */
  readonly matchedLines: readonly number[];
}

/** The AI usage preferences for one URL (docs/usage-preferences.md). */
export interface UsagePreferences {
  /** The vocabulary draft Content-Usage was read with. */
  readonly vocabulary: string;
  /** What robots.txt says, or null when it was not given. */
  readonly robotsTxt: RobotsUsage | null;
  /** Per category label of the vocabulary. */
  readonly contentUsage: Readonly<Record<string, CategoryResult>>;
  /** Per Content-Signal label. */
  readonly contentSignal: Readonly<Record<ContentSignalLabel, CategoryResult>>;
  /** Every statement that applies, robots.txt first, then headers. */
  readonly statements: readonly UsageStatement[];
}

/** The values of a header field, all its field lines, in order (names compared case-insensitively). */
export function headerValues(headers: HeaderInput | undefined, name: string): string[] {
  if (headers === undefined) return [];
  const want = name.toLowerCase();
  const out: string[] = [];
  if (Symbol.iterator in headers) {
    for (const [k, v] of headers as Iterable<readonly [string, string]>) {
      if (k.toLowerCase() === want) out.push(v);
    }
    return out;
  }
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== want || v === undefined) continue;
    if (typeof v === "string") out.push(v);
    else out.push(...v);
  }
  return out;
}

/** Trims HTTP whitespace (RFC 9110 §5.5 OWS) only. */
function trimOws(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === 0x20 || s.charCodeAt(a) === 0x09)) a++;
  while (b > a && (s.charCodeAt(b - 1) === 0x20 || s.charCodeAt(b - 1) === 0x09)) b--;
  return s.slice(a, b);
}

/**
 * Statements from response headers. Field lines of one field are combined
 * with ", " and parsed once (RFC 9651 §4.2), so splitting a value over
 * several lines changes nothing.
 */
export function headerStatements(
  headers: HeaderInput | undefined,
  vocabulary: AiprefVocabulary = DEFAULT_VOCABULARY,
): UsageStatement[] {
  const out: UsageStatement[] = [];
  for (const [kind, field] of HEADER_FIELDS) {
    const values = headerValues(headers, kind);
    if (values.length === 0) continue;
    const text = values.map(trimOws).join(", ");
    out.push(statementOf(kind, { via: "header", field }, text, vocabulary));
  }
  return out;
}

/** The response header fields that carry statements: their kind (the field's lowercase name) and name. */
const HEADER_FIELDS = [
  ["content-usage", "Content-Usage"],
  ["content-signal", "Content-Signal"],
] as const;

/** A statement of `kind` written as `text` at `origin`, read by its kind's reader. */
function statementOf(
  kind: UsageStatement["kind"],
  origin: UsageOrigin,
  text: string,
  vocabulary: AiprefVocabulary,
): UsageStatement {
  const read =
    kind === "content-usage" ? readUsageStatement(text, vocabulary) : readContentSignal(text);
  return { kind, origin, text, ...read };
}

/** A Content-Usage line of robots.txt as a statement (also for reports: agent-usage.ts). */
export function usageStatement(r: ContentUsageRule, vocabulary: AiprefVocabulary): UsageStatement {
  const origin: UsageOrigin = {
    via: "robots.txt",
    directive: "content-usage",
    line: r.line,
    group: r.group,
    path: r.path,
  };
  return statementOf("content-usage", origin, r.statement, vocabulary);
}

/** A Content-Signal line of robots.txt as a statement (also for reports: agent-usage.ts). */
export function signalStatement(s: ContentSignalLine): UsageStatement {
  const origin: UsageOrigin = {
    via: "robots.txt",
    directive: "content-signal",
    line: s.line,
    group: s.group,
    path: null,
  };
  return statementOf("content-signal", origin, s.statement, DEFAULT_VOCABULARY);
}

/** Options of UsageMatcher.preferences. */
export interface UsageCheckOptions {
  /** The crawl verdict when already known (the client's check); else computed from the file. */
  readonly allowed?: boolean;
  /** The response's header fields. */
  readonly headers?: HeaderInput;
}

/**
 * The usage lines of one robots.txt for one crawler, compiled once (paths
 * as patterns, statements read) and matched against many URLs, as
 * compileMatcher is for allow/disallow.
 */
export interface UsageMatcher {
  /** The agent's product token. */
  readonly agent: string;
  /** The usage lines of its groups. */
  readonly lines: AgentUsageLines;
  /** The preferences that apply to `url` (or a path), with the response `headers` when given. */
  preferences(url: string, options?: UsageCheckOptions): UsagePreferences;
}

class CompiledUsage implements UsageMatcher {
  readonly lines: AgentUsageLines;
  readonly #patterns: readonly CompiledPattern[];
  readonly #usage: readonly UsageStatement[];
  readonly #signals: readonly UsageStatement[];
  #matcher: RobotsMatcher | null = null;

  constructor(
    readonly robots: RobotsTxt,
    readonly agent: string,
    readonly vocabulary: AiprefVocabulary,
  ) {
    this.lines = usageLinesFor(robots, agent);
    this.#patterns = this.lines.contentUsage.map((r) => compilePattern(r.pattern));
    this.#usage = this.lines.contentUsage.map((r) => usageStatement(r, vocabulary));
    this.#signals = this.lines.contentSignal.map(signalStatement);
  }

  preferences(url: string, options: UsageCheckOptions = {}): UsagePreferences {
    const path = readPath(url);
    let allowed: boolean;
    if (options.allowed !== undefined) allowed = options.allowed;
    else {
      this.#matcher ??= compileMatcher(this.robots, this.agent);
      allowed = this.#matcher.isAllowed(path);
    }
    // Longest matching path wins; equal lengths all apply (attach-05 §3.1).
    const matched: number[] = [];
    if (allowed) {
      let best = -1;
      const rules = this.lines.contentUsage;
      for (let i = 0; i < rules.length; i++) {
        const len = rules[i]!.pattern.length;
        if (len < best || !compiledMatches(this.#patterns[i]!, path)) continue;
        if (len > best) {
          best = len;
          matched.length = 0;
        }
        matched.push(i);
      }
    }
    // Content-Signal has no path, but a page that may not be fetched has no
    // content to use either: both kinds follow attach-05 §3.1 here.
    const statements = [
      ...matched.map((i) => this.#usage[i]!),
      ...(allowed ? this.#signals : []),
      ...headerStatements(options.headers, this.vocabulary),
    ];
    return {
      vocabulary: AIPREF_VOCABULARIES[this.vocabulary].draft,
      robotsTxt: {
        agent: this.agent,
        path,
        allowed,
        source: this.lines.source,
        contentUsageLines: this.lines.contentUsage.map((r) => r.line),
        matchedLines: matched.map((i) => this.lines.contentUsage[i]!.line),
      },
      ...combineStatements(statements, this.vocabulary),
      statements,
    };
  }
}

/**
 * Compile the usage lines of `robots` that apply to `agent` (compared as
 * for allow/disallow, docs/protocol.md#choosing-rules). Vocabulary default `vocab-08`.
 */
export function compileUsage(
  robots: RobotsTxt,
  agent: string,
  options: { readonly vocabulary?: AiprefVocabulary } = {},
): UsageMatcher {
  if (typeof agent !== "string") {
    throw new RobotsError("invalid-agent", `agent must be a string, got ${typeof agent}`);
  }
  return new CompiledUsage(robots, agent, options.vocabulary ?? DEFAULT_VOCABULARY);
}

/** Most restrictive first (vocab-08 §5.1). */
function combine(per: ReadonlyArray<readonly [Preference, UsageOrigin]>): CategoryResult {
  for (const want of ["disallowed", "allowed"] as const) {
    const from = per.filter(([p]) => p === want).map(([, o]) => o);
    if (from.length > 0) return { preference: want, from };
  }
  return { preference: "unknown", from: [] };
}

/** Combine statements into one result per category (vocab-08 §5.1). */
export function combineStatements(
  statements: readonly UsageStatement[],
  vocabulary: AiprefVocabulary = DEFAULT_VOCABULARY,
): Pick<UsagePreferences, "contentUsage" | "contentSignal"> {
  const usage = statements.filter((s) => s.kind === "content-usage");
  const signal = statements.filter((s) => s.kind === "content-signal");
  const contentUsage: Record<string, CategoryResult> = {};
  for (const c of AIPREF_VOCABULARIES[vocabulary].categories) {
    contentUsage[c.label] = combine(
      usage.map((s) => [categoryPreference(s, c.label, vocabulary), s.origin] as const),
    );
  }
  const contentSignal = {} as Record<ContentSignalLabel, CategoryResult>;
  for (const label of CONTENT_SIGNAL_LABELS) {
    contentSignal[label] = combine(
      signal.map((s) => [s.values[label] ?? "unknown", s.origin] as const),
    );
  }
  return { contentUsage, contentSignal };
}

/**
 * The AI usage preferences that apply: from `robots` for `agent` and `url`
 * when given, and from `headers` when given. Never throws on any file or
 * header value; a malformed statement states nothing and is kept, with why.
 * For many URLs of one file, compileUsage once and ask it per URL.
 */
export function usagePreferences(query: UsageQuery): UsagePreferences {
  const vocabulary = query.vocabulary ?? DEFAULT_VOCABULARY;
  if (query.robots === undefined || query.robots === null) {
    const statements = headerStatements(query.headers, vocabulary);
    return {
      vocabulary: AIPREF_VOCABULARIES[vocabulary].draft,
      robotsTxt: null,
      ...combineStatements(statements, vocabulary),
      statements,
    };
  }
  if (typeof query.agent !== "string" || typeof query.url !== "string") {
    throw new RobotsError(
      "invalid-argument",
      "usagePreferences: with robots, pass the crawler's product token as agent and the URL (or path) as url",
    );
  }
  return compileUsage(query.robots, query.agent, { vocabulary }).preferences(query.url, {
    ...(query.allowed === undefined ? {} : { allowed: query.allowed }),
    ...(query.headers === undefined ? {} : { headers: query.headers }),
  });
}
