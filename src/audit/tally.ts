/**
 * The per-crawler accounting of an audit (`robots audit`, docs/audit.md):
 * requests, requests to URLs robots.txt disallowed with the deciding line,
 * requests sooner than the group's Crawl-delay after the same crawler's
 * previous one, and verification counts. Time-aware: with several dated
 * versions of robots.txt, a request counts as disallowed only when every
 * version in force during the 24 hours before it disallows it
 * (docs/protocol.md#caching: a crawler may keep a copy that long). Matchers
 * are compiled once per version and token. Pure computation: the entry
 * (src/entries/audit.ts) reads files and resolves names.
 */
import { compileMatcher, type RobotsMatcher } from "../match/compile.js";
import { readCrawlDelay } from "../match/directives.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import { type AgentClaim, identifyAgent } from "./identify.js";

/** One version of robots.txt and when it came into force. */
export interface RobotsVersion {
  /** The file's bytes or text. */
  readonly body: string | Uint8Array;
  /** When it came into force, ms since the epoch; -Infinity for a file with no date. */
  readonly since: number;
  /** How the report names it: a commit, a file name. */
  readonly label: string;
}

/** One disallowed request, as the report shows it. */
export interface AuditExample {
  /** The line number in the logs, counted across all inputs in order. */
  readonly logLine: number;
  /** The request target as logged (cut at 2000 characters). */
  readonly url: string;
  /** The deciding robots.txt line. */
  readonly robotsLine: number;
  /** Which version decided, when there are several (a commit or file name). */
  readonly robotsVersion?: string;
}

/** One crawler's row of the report. */
export interface AuditCrawler {
  /** The crawler's name as the catalogue spells it, or another bot's product token. */
  readonly name: string;
  /** Requests made (from addresses not failing verification). */
  readonly requests: number;
  /** Requests to URLs every robots.txt version in force disallowed. */
  readonly disallowed: number;
  /** Requests less than the group's Crawl-delay after this crawler's previous request. */
  readonly delayBreaches: number;
  /** Requests from addresses that passed verification. */
  readonly verified: number;
  /** Requests claiming it from addresses that failed verification (counted apart, in `unverifiedClaims`). */
  readonly unverified: number;
  /** The first few disallowed requests. */
  readonly examples: AuditExample[];
}

/** A malformed line, named by file and line. */
export interface MalformedLine {
  /** The log's name (`<stdin>` for stdin). */
  readonly file: string;
  /** The line number in that log, from 1. */
  readonly line: number;
}

/** Requests per hour of one crawler, for charts. */
export interface AuditTimeline {
  /** The crawler's name; `(claimed, not verified)` appended for failed claims. */
  readonly name: string;
  /** [hour start in ms, requests, disallowed or delay breaches]. */
  readonly hours: [number, number, number][];
}

/** What an audit finds (the JSON `robots audit --format json` prints, plus the extras below). */
export interface AuditResult {
  /** Every line read, malformed included. */
  readonly lines: number;
  /** Lines that were no log record (overlong ones included). */
  readonly malformed: number;
  /** Crawlers whose requests passed verification or were not checked, by disallowed requests. */
  readonly crawlers: AuditCrawler[];
  /** Requests that claimed a crawler from an address that failed verification, by claimed name. */
  readonly unverifiedClaims: AuditCrawler[];
  /** The first malformed lines. */
  readonly malformedLines: MalformedLine[];
  /** Per-crawler requests over time; present when asked for. */
  readonly timelines?: AuditTimeline[];
}

/** The verification outcome of one request. */
export type Verification = "verified" | "unverified" | "unchecked";

/** Options of an Auditor. */
export interface AuditorOptions {
  /** Count browsers and other clients too, not only bots. */
  readonly all?: boolean;
  /** How robots.txt is read (default `google`). */
  readonly profile?: Profile;
  /** Disallowed examples kept per crawler (default 5). */
  readonly examples?: number;
  /** Malformed lines named (default 10). */
  readonly malformedNamed?: number;
  /** Keep requests per hour per crawler. */
  readonly timelines?: boolean;
}

/** RFC 9309 §2.4: a crawler may use a cached robots.txt for up to 24 hours. */
const CACHE_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Distinct names kept; later new names are counted under OTHER (hostile logs invent names). */
const MAX_ROWS = 5000;
const OTHER = "(other bots)";
const CLAIM_CACHE = 10_000;
const URL_SHOWN = 2000;

/** Verdicts remembered in all; past this many every one is forgotten and memory starts afresh. */
const VERDICT_CACHE = 16_384;
/** Longer URLs are checked each time, not remembered: bounded memory whatever the log. */
const VERDICT_URL_MAX = 1024;
/** Tokens whose rules are remembered per version; past this many the memory starts afresh. */
const TOKEN_CACHE = 10_000;
/** What #verdict and #disallowed give for a URL the crawler may fetch. */
const ALLOWED = -1;

interface Rules {
  readonly matcher: RobotsMatcher;
  readonly delayMs: number;
  /** URL → deciding line of a disallowing rule, or ALLOWED. */
  readonly verdicts: Map<string, number>;
}

/** One request as the accounting sees it (LogReader is one). */
export interface AuditRequest {
  /** When it started, ms since the epoch; NaN when the log has no time. */
  readonly time: number;
  /** Who it says it is. */
  readonly claim: AgentClaim;
  /** The request target, read only when the request is counted. */
  url(): string;
}

class Row {
  requests = 0;
  disallowed = 0;
  delayBreaches = 0;
  verified = 0;
  unverified = 0;
  last = Number.NEGATIVE_INFINITY;
  readonly examples: AuditExample[] = [];
  readonly hours: Map<number, [number, number, number]> | null;
  constructor(
    readonly name: string,
    timelines: boolean,
  ) {
    this.hours = timelines ? new Map() : null;
  }
}

/** Accounts requests one by one; `result()` gives the report. */
export class Auditor {
  readonly #versions: { robots: RobotsTxt; since: number; label: string }[];
  /** Per version: token → its rules; group selection → rules, shared by tokens that select alike. */
  readonly #rules: Map<string, Rules>[];
  readonly #selections: Map<string, Rules>[];
  #remembered = 0;
  readonly #opts: Required<AuditorOptions>;
  readonly #rows = new Map<string, Row>();
  readonly #claimed = new Map<string, Row>();
  readonly #claims = new Map<string, AgentClaim>();
  readonly #malformedLines: MalformedLine[] = [];
  #lines = 0;
  #malformed = 0;

  constructor(versions: readonly RobotsVersion[], options: AuditorOptions = {}) {
    this.#opts = {
      all: options.all ?? false,
      profile: options.profile ?? "google",
      examples: options.examples ?? 5,
      malformedNamed: options.malformedNamed ?? 10,
      timelines: options.timelines ?? false,
    };
    this.#versions = [...versions]
      .sort((a, b) => a.since - b.since)
      .map((v) => ({
        robots: parseRobotsTxt(v.body, { profile: this.#opts.profile }),
        since: v.since,
        label: v.label,
      }));
    this.#rules = this.#versions.map(() => new Map());
    this.#selections = this.#versions.map(() => new Map());
  }

  /** What a User-Agent claims, remembered for the next lines that send it. */
  claim(userAgent: string): AgentClaim {
    let c = this.#claims.get(userAgent);
    if (c === undefined) {
      c = identifyAgent(userAgent);
      if (this.#claims.size >= CLAIM_CACHE) this.#claims.clear();
      this.#claims.set(userAgent, c);
    }
    return c;
  }

  /** Count a line that was not a log record. */
  malformed(file: string, line: number): void {
    this.#lines++;
    this.#malformed++;
    if (this.#malformedLines.length < this.#opts.malformedNamed) {
      this.#malformedLines.push({ file, line });
    }
  }

  /** Count a blank line (read, neither a request nor malformed). */
  blank(): void {
    this.#lines++;
  }

  /** Account one request. */
  add(request: AuditRequest, verification: Verification): void {
    const logLine = ++this.#lines;
    const claim = request.claim;
    if (claim.kind === "browser" && !this.#opts.all) return;
    const row = this.#row(verification === "unverified" ? this.#claimed : this.#rows, claim.name);
    row.requests++;
    if (verification === "verified") row.verified++;
    else if (verification === "unverified") row.unverified++;
    const t = request.time;
    const at = this.#inForce(t);
    let broke = false;
    if (at >= 0) {
      const rules = this.#ruleFor(at, claim.token);
      const url = request.url();
      const line = this.#disallowed(url, claim.token, t, at, rules);
      if (line !== ALLOWED) {
        broke = true;
        row.disallowed++;
        if (row.examples.length < this.#opts.examples) {
          const shown = url.length > URL_SHOWN ? url.slice(0, URL_SHOWN) : url;
          const ex: AuditExample = { logLine, url: shown, robotsLine: line };
          row.examples.push(
            this.#versions.length > 1 ? { ...ex, robotsVersion: this.#versions[at]!.label } : ex,
          );
        }
      }
      if (rules.delayMs > 0 && t >= row.last && t - row.last < rules.delayMs) {
        row.delayBreaches++;
        broke = true;
      }
    }
    if (!Number.isNaN(t) && t > row.last) row.last = t;
    if (row.hours !== null && !Number.isNaN(t)) {
      const h = Math.floor(t / HOUR_MS) * HOUR_MS;
      const cell = row.hours.get(h) ?? [h, 0, 0];
      cell[1]++;
      if (broke) cell[2]++;
      row.hours.set(h, cell);
    }
  }

  #row(rows: Map<string, Row>, name: string): Row {
    let row = rows.get(name);
    if (row === undefined) {
      const key = rows.size >= MAX_ROWS ? OTHER : name;
      row = rows.get(key) ?? new Row(key, this.#opts.timelines);
      rows.set(key, row);
    }
    return row;
  }

  /** The version in force at `t`: the last one since on or before it; -1 when none is. */
  #inForce(t: number): number {
    const vs = this.#versions;
    if (vs.length === 1 && vs[0]!.since === Number.NEGATIVE_INFINITY) return 0;
    if (Number.isNaN(t)) return -1;
    // Binary search: a git history may hold hundreds of versions.
    let lo = 0;
    let hi = vs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vs[mid]!.since <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /**
   * The rules of version `version` for `token`. Tokens that select the same
   * groups (docs/protocol.md#choosing-rules) share one Rules, so their
   * verdicts are remembered once and a log inventing tokens adds none.
   */
  #ruleFor(version: number, token: string): Rules {
    const byToken = this.#rules[version]!;
    let r = byToken.get(token);
    if (r === undefined) {
      const robots = this.#versions[version]!.robots;
      const matcher = compileMatcher(robots, token);
      const selection = matcher.groups.join(",");
      r = this.#selections[version]!.get(selection);
      if (r === undefined) {
        const delay = readCrawlDelay(robots, token);
        r = { matcher, delayMs: (delay ?? 0) * 1000, verdicts: new Map() };
        this.#selections[version]!.set(selection, r);
      }
      if (byToken.size >= TOKEN_CACHE) byToken.clear();
      byToken.set(token, r);
    }
    return r;
  }

  /** The deciding line of a rule of `rules` disallowing `url`, or ALLOWED. */
  #verdict(rules: Rules, url: string): number {
    let line = rules.verdicts.get(url);
    if (line === undefined) {
      const v = rules.matcher.check(url);
      line = v.allowed ? ALLOWED : v.line;
      if (url.length <= VERDICT_URL_MAX) {
        if (this.#remembered >= VERDICT_CACHE) {
          for (const m of this.#selections) for (const other of m.values()) other.verdicts.clear();
          this.#remembered = 0;
        }
        this.#remembered++;
        rules.verdicts.set(url, line);
      }
    }
    return line;
  }

  /**
   * The deciding line of version `at` (whose rules for the token are
   * `rules`) when every version in force during the 24 hours before `t`
   * disallows `url`, else ALLOWED. A request within 24 hours of the first known
   * version is never counted: an older copy, unknown here, may have allowed it.
   */
  #disallowed(url: string, token: string, t: number, at: number, rules: Rules): number {
    const line = this.#verdict(rules, url);
    if (line === ALLOWED) return ALLOWED;
    const from = t - CACHE_MS;
    for (let i = at; ; i--) {
      // Version i covers the window's start: no older one was in force within it.
      if (this.#versions[i]!.since <= from) return line;
      if (i === 0) return ALLOWED;
      if (this.#verdict(this.#ruleFor(i - 1, token), url) === ALLOWED) return ALLOWED;
    }
  }

  /** The report so far. */
  result(): AuditResult {
    // A crawler's row counts the claims that failed verification too (in `unverified` only).
    const rows = (m: Map<string, Row>, failed?: Map<string, Row>): AuditCrawler[] =>
      [...m.values()]
        .sort((a, b) => b.disallowed - a.disallowed || b.requests - a.requests)
        .map((r) => ({
          name: r.name,
          requests: r.requests,
          disallowed: r.disallowed,
          delayBreaches: r.delayBreaches,
          verified: r.verified,
          unverified: failed === undefined ? r.unverified : (failed.get(r.name)?.requests ?? 0),
          examples: r.examples,
        }));
    const base = {
      lines: this.#lines,
      malformed: this.#malformed,
      crawlers: rows(this.#rows, this.#claimed),
      unverifiedClaims: rows(this.#claimed),
      malformedLines: this.#malformedLines,
    };
    if (!this.#opts.timelines) return base;
    const line = (r: Row, name: string): AuditTimeline => ({
      name,
      hours: [...r.hours!.values()].sort((a, b) => a[0] - b[0]),
    });
    const timelines = [
      ...[...this.#rows.values()].map((r) => line(r, r.name)),
      ...[...this.#claimed.values()].map((r) => line(r, `${r.name} (claimed, not verified)`)),
    ];
    return { ...base, timelines };
  }
}
