/**
 * bytes → line events → parsed file (docs/protocol.md#parsing, #groups, #other-directives). Never throws on any
 * body; lines that mean nothing are recorded and left to the linter.
 */
import { checkProfile, type Profile } from "../protocol/profile.js";
import { toBytes } from "./bytes.js";
import { asciiRun, FileBuilder, grownBytes, type Scratch, withScratch } from "./file-builder.js";
import { M_STAR, R_META, ROW, type RuleTable } from "./rule-table.js";
import { LineScanner, type LineVisitor } from "./scan-lines.js";
import type {
  Directive,
  Group,
  LineKind,
  LineRecord,
  ParseOptions,
  Rule,
  Sitemap,
} from "./types.js";
import type { ValueTable } from "./value-table.js";

const KIND_CODES: readonly LineKind[] = [
  "unknown",
  "user-agent",
  "allow",
  "disallow",
  "sitemap",
  "unused",
];
const TYPO = 8;
const MISSING_COLON = 16;
const TOO_LONG = 32;
const COMMENT = 64;

/** See sizeFactsOf. */
export interface RobotsSizeFacts {
  readonly agents: number;
  /** Characters of the agents' values and (where they differ) tokens. */
  readonly agentChars: number;
  /** Rules whose pattern holds a `*` (they compile a glob). */
  readonly wildcardRules: number;
  readonly directives: number;
  readonly directiveChars: number;
  readonly sitemaps: number;
  readonly sitemapChars: number;
}

/**
 * What the package reads of a RobotsTxt beyond its public members: set once
 * by the class's static block, used through the functions below, so the
 * published class is exactly its public surface.
 */
interface ParsedFileAccess {
  make(...parts: RobotsTxtParts): RobotsTxt;
  ruleTable(robots: RobotsTxt): RuleTable;
  compiled(robots: RobotsTxt): unknown;
  keepCompiled(robots: RobotsTxt, value: unknown): void;
  sizeFacts(robots: RobotsTxt): RobotsSizeFacts;
  hasDirective(robots: RobotsTxt, key: string): boolean;
}
let access: ParsedFileAccess;

/** The constructor's parameters, named once (the constructor is private: parseRobotsTxt makes files). */
type RobotsTxtParts = [
  profile: Profile,
  groups: Group[],
  ruleTable: RuleTable,
  orphanCount: number,
  values: ValueTable,
  lineBits: string,
  lineCount: number,
  byteLength: number,
];

/** Every allow/disallow rule of the file, packed (see RuleTable). */
export function ruleTableOf(robots: RobotsTxt): RuleTable {
  return access.ruleTable(robots);
}

/**
 * What match/compile.ts keeps with this file: the indexes it compiled for
 * it (shared by matchers of agents that select the same groups).
 */
export function compiledOf(robots: RobotsTxt): unknown {
  return access.compiled(robots);
}

/** Keep `value` with the file (see compiledOf). */
export function keepCompiled(robots: RobotsTxt, value: unknown): void {
  access.keepCompiled(robots, value);
}

/**
 * What the parsed file holds and will hold once every part is read, in
 * counts and characters: the client's memory estimate
 * (src/client/retained-size.ts) is made from these, once per cached copy.
 */
export function sizeFactsOf(robots: RobotsTxt): RobotsSizeFacts {
  return access.sizeFacts(robots);
}

/**
 * Some directive of the file has `key` (lowercase), found without making
 * the directives (match/directives.ts reads one key).
 */
export function hasDirectiveKey(robots: RobotsTxt, key: string): boolean {
  return access.hasDirective(robots, key);
}

/** A parsed robots.txt. Plain data plus a few read-only views; made by parseRobotsTxt. */
export class RobotsTxt {
  static {
    access = {
      make: (...parts) => new RobotsTxt(...parts),
      ruleTable: (robots) => robots.#ruleTable,
      compiled: (robots) => robots.#compiled,
      keepCompiled: (robots, value) => {
        robots.#compiled = value;
      },
      sizeFacts: (robots) => robots.#sizeFacts(),
      hasDirective: (robots, key) => robots.#values.hasKey(key),
    };
  }
  #compiled: unknown = undefined;
  /** The profile it was parsed with. */
  readonly profile: Profile;
  /** Groups in file order (docs/protocol.md#groups). */
  readonly groups: readonly Group[];
  readonly #ruleTable: RuleTable;
  readonly #orphanCount: number;
  #orphanRules: Rule[] | null = null;
  /** Sitemaps and other directives, packed (see ValueTable). */
  readonly #values: ValueTable;
  /** Lines in the body, as the reference counts them (a final empty line included). */
  readonly lineCount: number;
  /** Size of the body in bytes. */
  readonly byteLength: number;
  /** One character per line: its code (kind, TYPO, MISSING_COLON, TOO_LONG, COMMENT). */
  readonly #lineBits: string;

  private constructor(
    ...[
      profile,
      groups,
      ruleTable,
      orphanCount,
      values,
      lineBits,
      lineCount,
      byteLength,
    ]: RobotsTxtParts
  ) {
    this.profile = profile;
    this.groups = groups;
    this.#ruleTable = ruleTable;
    this.#orphanCount = orphanCount;
    this.#values = values;
    this.#lineBits = lineBits;
    this.lineCount = lineCount;
    this.byteLength = byteLength;
  }

  /** `Sitemap:` values in file order, whatever group they appear in (docs/protocol.md#other-directives). */
  get sitemaps(): readonly Sitemap[] {
    return this.#values.sitemaps();
  }

  /** Every other directive, in file order (docs/protocol.md#other-directives); a group's are the same objects. */
  get directives(): readonly Directive[] {
    return this.#values.directives();
  }

  /** Plain data: what the getters show, so `JSON.stringify` sees it too. */
  toJSON(): {
    profile: Profile;
    groups: readonly Group[];
    orphanRules: readonly Rule[];
    sitemaps: readonly Sitemap[];
    directives: readonly Directive[];
    lineCount: number;
    byteLength: number;
  } {
    return {
      profile: this.profile,
      groups: this.groups,
      orphanRules: this.orphanRules,
      sitemaps: this.sitemaps,
      directives: this.directives,
      lineCount: this.lineCount,
      byteLength: this.byteLength,
    };
  }

  /** See sizeFactsOf. */
  #sizeFacts(): RobotsSizeFacts {
    let agents = 0;
    let agentChars = 0;
    for (const g of this.groups) {
      agents += g.agents.length;
      for (const a of g.agents)
        agentChars += a.value.length + (a.token === a.value ? 0 : a.token.length);
    }
    const table = this.#ruleTable;
    let wildcardRules = 0;
    for (let r = R_META; r < table.count * ROW; r += ROW) {
      if ((table.rows[r]! & M_STAR) !== 0) wildcardRules++;
    }
    return { agents, agentChars, wildcardRules, ...this.#values.sizeFacts() };
  }

  /** Rules before the first user-agent line: they belong to no group and never apply. */
  get orphanRules(): readonly Rule[] {
    this.#orphanRules ??= this.#ruleTable.rules(0, this.#orphanCount);
    return this.#orphanRules;
  }

  /** How the line numbered `line` (1-based) was read, or undefined past the end. */
  lineRecord(line: number): LineRecord | undefined {
    if (!Number.isInteger(line) || line < 1 || line > this.lineCount) return undefined;
    const bits = this.#lineBits.charCodeAt(line - 1);
    return {
      line,
      kind: KIND_CODES[bits & 7]!,
      typo: (bits & TYPO) !== 0,
      missingColon: (bits & MISSING_COLON) !== 0,
      tooLong: (bits & TOO_LONG) !== 0,
      comment: (bits & COMMENT) !== 0,
    };
  }

  /** One record per line, in order (docs/protocol.md#lines). */
  lines(): readonly LineRecord[] {
    const out: LineRecord[] = [];
    for (let i = 1; i <= this.lineCount; i++) out.push(this.lineRecord(i)!);
    return out;
  }
}

/** Options for the low-level hook: see every line event of the same pass. */
export interface ParseHooks {
  /** Called for each line after the parser has read it (the event object is reused). */
  readonly onLine?: LineVisitor;
}

/**
 * Parse a robots.txt body. A string means its UTF-8 encoding; pass the raw
 * bytes (`Uint8Array`, e.g. a Node Buffer) when you have them, so that
 * invalid UTF-8 and other encodings are read exactly as a crawler reads them.
 */
export function parseRobotsTxt(body: Uint8Array | string, options: ParseOptions = {}): RobotsTxt {
  return parseRobotsTxtWith(body, options, {});
}

/** parseRobotsTxt, calling `hooks` during the pass (the linter and src/explain's line spans). */
export function parseRobotsTxtWith(
  body: Uint8Array | string,
  options: ParseOptions,
  hooks: ParseHooks,
): RobotsTxt {
  const profile = checkProfile(options.profile);
  const bytes = toBytes(body);
  return withScratch((scratch) => parseWith(bytes, profile, hooks, scratch));
}

/**
 * The `Sitemap:` lines of a body exactly as parseRobotsTxt(body, options)
 * reads them, without building the rest of the file: for the client's
 * sitemaps(), which reads nothing else. The same scanner and builder
 * read them; groups, rules, other directives and line records are
 * skipped, which is nearly all the time of a parse of a file of rules or
 * groups (docs/performance-decisions.md, The client's cache).
 */
export function parseSitemaps(
  body: Uint8Array | string,
  options: ParseOptions = {},
): readonly Sitemap[] {
  const profile = checkProfile(options.profile);
  const bytes = toBytes(body);
  return withScratch((scratch) => {
    const scanner = new LineScanner(bytes, profile);
    const ev = scanner.event;
    const out = new FileBuilder(bytes, scanner.view, profile, scratch);
    while (scanner.next()) {
      if (ev.kind === "sitemap") out.sitemap(ev.line, ev.valueStart, ev.valueEnd);
    }
    return out.finish(scratch).values.sitemaps();
  });
}

/** parseRobotsTxt with `scratch` for its buffers; leaves the grown buffers in it. */
function parseWith(
  bytes: Uint8Array,
  profile: Profile,
  hooks: ParseHooks,
  scratch: Scratch,
): RobotsTxt {
  let bits: Uint8Array = scratch.bits;
  const onLine = hooks.onLine;
  // The parser drives the scanner in its own loop rather than passing a
  // visitor: no per-line closure call (see LineScanner).
  const scanner = new LineScanner(bytes, profile);
  const ev = scanner.event;
  const out = new FileBuilder(bytes, scanner.view, profile, scratch);
  while (scanner.next()) {
    let code = 0;
    switch (ev.kind) {
      case "user-agent":
        code = 1;
        out.agent(ev.line, ev.valueStart, ev.valueEnd);
        break;
      case "allow":
        code = 2;
        out.rule(true, ev.line, ev.valueStart, ev.valueEnd);
        break;
      case "disallow":
        code = 3;
        out.rule(false, ev.line, ev.valueStart, ev.valueEnd);
        break;
      case "sitemap":
        code = 4;
        out.sitemap(ev.line, ev.valueStart, ev.valueEnd);
        break;
      case "other":
        code = out.other(ev.line, ev.keyStart, ev.keyEnd, ev.valueStart, ev.valueEnd) ? 5 : 0;
        break;
      default:
        code = 0;
    }
    if (ev.typo) code |= TYPO;
    if (ev.missingColon) code |= MISSING_COLON;
    if (ev.tooLong) code |= TOO_LONG;
    if (ev.comment >= 0) code |= COMMENT;
    if (ev.line > bits.length) bits = grownBytes(bits, ev.line);
    bits[ev.line - 1] = code;
    if (onLine !== undefined) onLine(ev, bytes);
  }
  const lineCount = ev.line;
  const { groups, table, orphanCount, values } = out.finish(scratch);
  // Line codes are < 0x80: one ASCII character per line, on the JS heap.
  const lineBits = asciiRun(bits, lineCount);
  scratch.bits = bits;
  return access.make(
    profile,
    groups,
    table,
    orphanCount,
    values,
    lineBits,
    lineCount,
    bytes.length,
  );
}
