/**
 * robots-exclusion/robots-parser: a drop-in for robots-parser 3.x.
 *
 * `robotsParser(url, contents)` returns an object with robots-parser's
 * methods, signatures and conventions (`undefined` for a URL of another
 * origin, -1 for no matching line, null for no Host), whose answers are
 * Google's reading of the file (docs/protocol.md#choosing-rules,
 * docs/protocol.md#matching, docs/protocol.md#deciding-line) on the path an
 * HTTP client sends for the URL. What differs from robots-parser and why is
 * in docs/integrations.md.
 *
 * This entry is CommonJS, like robots-parser: `require()` returns the
 * function itself, and `import robotsParser from` gets it as the default
 * export. It loads the ES modules of the core with `require()`, which
 * Node.js does from 20.19 on (the package's `engines`).
 */
import agentName = require("../match/agent-name.js");
import compile = require("../match/compile.js");
import directives = require("../match/directives.js");
import requestPath = require("../client/request-path.js");
import parse = require("../parse/parse-robots-txt.js");

/** Where relative URLs are resolved; only its path is ever matched. */
const RELATIVE_BASE = "http://relative.invalid/";
/** The origin key of every relative URL: they match only a relative robots.txt URL. */
const RELATIVE = "relative";
/** Matchers kept per instance before the cache starts over (a crawler passes a few user agents). */
const MAX_AGENTS = 64;

/**
 * What robots-parser compares to decide that a URL belongs to the robots.txt
 * URL's site: the scheme, the host name and the port, with 443 for `https:`
 * and 80 for anything else when the URL gives none. For http(s) that is the
 * WHATWG origin.
 */
function originKey(url: URL): string {
  if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
  return `${url.protocol}//${url.hostname}:${url.port || "80"}`;
}

/** `url` as the WHATWG parser reads it, absolute or against RELATIVE_BASE; null when it cannot. */
function parseAny(text: string): { url: URL; relative: boolean } | null {
  try {
    return { url: new URL(text), relative: false };
  } catch {
    try {
      return { url: new URL(text, RELATIVE_BASE), relative: true };
    } catch {
      return null;
    }
  }
}

/** A string argument as robots-parser reads it (`new URL()` turns anything into a string); null when it cannot. */
function asText(value: unknown): string | null {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    return null;
  }
}

/** The `*` agent: what robots-parser checks when no user agent is given. */
const ANY_AGENT = "*";

/**
 * The agent a user-agent string is matched as, read as every surface reads
 * a crawler name (readAgentName): a header as the crawler it names, a
 * browser's as `Mozilla` (as robots-parser and the reference read it), and
 * a string with no token as `*`.
 */
function agentOf(text: string): string {
  return text === "" ? ANY_AGENT : agentName.readAgentName(text).token;
}

class Robots implements robotsParser.Robot {
  readonly #robots: parse.RobotsTxt;
  /** originKey() of the robots.txt URL, RELATIVE, or null when it cannot be parsed. */
  readonly #origin: string | null;
  /** Compiled once per product token. */
  readonly #matchers = new Map<string, compile.PathMatcher>();
  /** The product token of each user-agent string seen. */
  readonly #agents = new Map<string, string>();
  /** The last user-agent argument and its matcher: a crawler passes the same one every time. */
  #lastUa: unknown = null;
  #lastMatcher: compile.PathMatcher | null = null;

  constructor(url: unknown, contents: unknown) {
    const text = asText(url);
    const parsed = text === null ? null : parseAny(text);
    this.#origin = parsed === null ? null : parsed.relative ? RELATIVE : originKey(parsed.url);
    this.#robots = parse.parseRobotsTxt(bodyOf(contents));
  }

  /**
   * The string the matcher reads for `url`: its origin and the path and
   * query an HTTP client requests (requestTarget); null when `url` is
   * invalid or of another origin.
   */
  #target(url: unknown): string | null {
    const origin = this.#origin;
    if (origin === null) return null;
    const text = asText(url);
    if (text === null) return null;
    // A URL already in the form the WHATWG parser writes is matched as it is.
    const at = requestPath.canonicalPathStart(text);
    if (at >= 0) {
      return at === origin.length && text.startsWith(origin) ? text : null;
    }
    const parsed = parseAny(text);
    if (parsed === null) return null;
    const key = parsed.relative ? RELATIVE : originKey(parsed.url);
    if (key !== origin) return null;
    return requestPath.requestTarget(parsed.url, parsed.url.origin);
  }

  /** The product token for `ua`, remembered per user-agent string. */
  #agent(ua: unknown): string {
    const key = typeof ua === "string" ? ua : ua === undefined || ua === null ? "" : asText(ua);
    if (key === null) return ANY_AGENT;
    let agent = this.#agents.get(key);
    if (agent === undefined) {
      agent = agentOf(key);
      if (this.#agents.size >= MAX_AGENTS) this.#agents.clear();
      this.#agents.set(key, agent);
    }
    return agent;
  }

  #matcher(ua: unknown): compile.PathMatcher {
    if (ua === this.#lastUa && this.#lastMatcher !== null) return this.#lastMatcher;
    const agent = this.#agent(ua);
    let matcher = this.#matchers.get(agent);
    if (matcher === undefined) {
      matcher = compile.compilePathMatcher(this.#robots, agent);
      if (this.#matchers.size >= MAX_AGENTS) this.#matchers.clear();
      this.#matchers.set(agent, matcher);
    }
    this.#lastUa = ua;
    this.#lastMatcher = matcher;
    return matcher;
  }

  isAllowed(url: string, ua?: string): boolean | undefined {
    // The hot path: a URL of this origin already in the form the WHATWG
    // parser writes, whose path the matcher need not locate again.
    const origin = this.#origin;
    if (typeof url === "string" && origin !== null) {
      const at = requestPath.canonicalPathStart(url);
      if (at >= 0) {
        if (at !== origin.length || !url.startsWith(origin)) return undefined;
        return this.#matcher(ua).isAllowedAt(url, at);
      }
    }
    const target = this.#target(url);
    if (target === null) return undefined;
    return this.#matcher(ua).isAllowed(target);
  }

  isDisallowed(url: string, ua?: string): boolean | undefined {
    return !this.isAllowed(url, ua);
  }

  isExplicitlyDisallowed(url: string, ua: string): boolean | undefined {
    const target = this.#target(url);
    if (target === null) return undefined;
    const matcher = this.#matcher(ua);
    // The * group counts only for the * agent itself, as robots-parser reads it.
    const explicit = matcher.agent === ANY_AGENT ? "global" : "named";
    return matcher.source === explicit && !matcher.isAllowed(target);
  }

  getMatchingLineNumber(url: string, ua?: string): number {
    const target = this.#target(url);
    if (target === null) return -1;
    const line = this.#matcher(ua).decidingLine(target);
    return line === 0 ? -1 : line;
  }

  getCrawlDelay(ua?: string): number | undefined {
    return directives.readCrawlDelay(this.#robots, this.#agent(ua));
  }

  getSitemaps(): string[] {
    const out: string[] = [];
    for (const s of this.#robots.sitemaps) if (s.url.length > 0) out.push(s.url);
    return out;
  }

  getPreferredHost(): string | null {
    // robots-parser's reading: the last Host line wins (the library's
    // readHost takes the first; Google's reference reads no Host).
    let host: string | null = null;
    for (const d of this.#robots.directives) {
      if (d.key === "host" && d.value.length > 0) host = d.value;
    }
    return host?.toLowerCase() ?? null;
  }
}

/** The body robots-parser takes: a string, with null or undefined read as an empty file. */
function bodyOf(contents: unknown): string | Uint8Array {
  if (typeof contents === "string" || contents instanceof Uint8Array) return contents;
  if (contents === undefined || contents === null) return "";
  return asText(contents) ?? "";
}

/**
 * Parse `contents`, the robots.txt served at `url`, as robots-parser's
 * default export does. `url` may be relative (then only relative URLs are
 * checked against it); `contents` null or undefined is an empty file.
 */
function robotsParser(url: string, contents?: string | null): robotsParser.Robot {
  return new Robots(url, contents);
}

/** robots-parser's types, under the name of its function. */
namespace robotsParser {
  /**
   * The parsed robots.txt, as robots-parser's `robotsParser()` returns it.
   * Every method reads the file as Google's reference does; URLs of another
   * origin than the robots.txt URL's answer `undefined`, as in robots-parser.
   */
  export interface Robot {
    /**
     * True when `ua` may crawl `url`; `undefined` when `url` is invalid or of
     * another origin (scheme, host and port, the default port filled in).
     * `ua` may be a full User-Agent header: its product token is used
     * (`Googlebot/2.1 (+http://…)` → `Googlebot`). Without one, the `*` group
     * decides.
     */
    isAllowed(url: string, ua?: string): boolean | undefined;
    /**
     * `!isAllowed(url, ua)`, as in robots-parser: true also for a URL that
     * isAllowed answers `undefined` for.
     */
    isDisallowed(url: string, ua?: string): boolean | undefined;
    /**
     * True when a group that names `ua` disallows `url` (the `*` group does
     * not count, unless `ua` is absent or `*`); `undefined` when `url` is
     * invalid or of another origin.
     */
    isExplicitlyDisallowed(url: string, ua: string): boolean | undefined;
    /**
     * The 1-based line of the rule that decides `url` for `ua`
     * (docs/protocol.md#deciding-line), or -1 when no rule matched or `url` is
     * invalid or of another origin.
     */
    getMatchingLineNumber(url: string, ua?: string): number;
    /** `Crawl-delay` in seconds for `ua` (the `*` group's without one), or `undefined`. */
    getCrawlDelay(ua?: string): number | undefined;
    /** The `Sitemap:` URLs, in file order, as written. */
    getSitemaps(): string[];
    /** The last `Host:` value, lower-cased, as robots-parser reads it; null when there is none. */
    getPreferredHost(): string | null;
  }
}

export = robotsParser;
