/**
 * bytes → line events → parsed file (SPEC.md §2, §3, §7). Never throws on any
 * body; lines that mean nothing are recorded and left to the linter.
 */
import { asciiText, decodeText, isNormalized, normalizePattern, toBytes } from "./bytes.js";
import { isProfile, type Profile } from "./profile.js";
import { LineScanner, type LineVisitor, UNUSED_KEYS } from "./scan-lines.js";
import type {
  AgentLine,
  Directive,
  Group,
  LineKind,
  LineRecord,
  ParseOptions,
  Rule,
  Sitemap,
} from "./types.js";

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

/**
 * End of the agent token of a user-agent value starting at `s` (SPEC.md §3):
 * the longest prefix made of `[A-Za-z_-]` (possibly empty).
 */
function agentTokenEnd(body: Uint8Array, s: number, e: number): number {
  let i = s;
  while (i < e) {
    const b = body[i]!;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x5f) i++;
    else break;
  }
  return i;
}

/**
 * The value names the global group: `*` alone or followed by whitespace
 * (C isspace: space, \t, \n, \v, \f, \r).
 */
function isGlobalAgent(body: Uint8Array, s: number, e: number): boolean {
  if (e === s || body[s] !== 0x2a) return false;
  if (e === s + 1) return true;
  const next = body[s + 1]!;
  return next === 0x20 || (next >= 0x09 && next <= 0x0d);
}

/** Lowercased keys already seen (`Crawl-delay` → `crawl-delay`); bounded. */
const lowerKeys = new Map<string, string>();

function lowerKey(name: string): string {
  let key = lowerKeys.get(name);
  if (key === undefined) {
    key = name.toLowerCase();
    if (lowerKeys.size < 1024) lowerKeys.set(name, key);
  }
  return key;
}

/**
 * @internal Where match/compile.ts keeps the indexes it compiled for this
 * file (shared by matchers of agents that select the same groups).
 */
export const compiledSlot: unique symbol = Symbol("robots-exclusion.compiled");

/** `[A-Za-z][A-Za-z0-9_. -]*`: a key that can name a directive. */
function isDirectiveName(bytes: Uint8Array, start: number, end: number): boolean {
  const first = bytes[start]! | 0x20;
  if (first < 0x61 || first > 0x7a) return false;
  for (let i = start + 1; i < end; i++) {
    const b = bytes[i]!;
    const l = b | 0x20;
    if ((l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39)) continue;
    if (b === 0x2d || b === 0x5f || b === 0x2e || b === 0x20) continue;
    return false;
  }
  return true;
}

/** A parsed robots.txt. Plain data plus a few read-only views. */
export class RobotsTxt {
  /** @internal */
  [compiledSlot]: unknown = undefined;
  readonly profile: Profile;
  /** Groups in file order (SPEC.md §3). */
  readonly groups: readonly Group[];
  /** Rules before the first user-agent line: they belong to no group and never apply. */
  readonly orphanRules: readonly Rule[];
  /** `Sitemap:` values in file order, whatever group they appear in (SPEC.md §7). */
  readonly sitemaps: readonly Sitemap[];
  /** Every other directive, in file order (SPEC.md §7). */
  readonly directives: readonly Directive[];
  /** Lines in the body, as the reference counts them (a final empty line included). */
  readonly lineCount: number;
  /** Size of the body in bytes. */
  readonly byteLength: number;
  readonly #lineBits: Uint8Array;

  /** @internal use parseRobotsTxt */
  constructor(
    profile: Profile,
    groups: Group[],
    orphanRules: Rule[],
    sitemaps: Sitemap[],
    directives: Directive[],
    lineBits: Uint8Array,
    lineCount: number,
    byteLength: number,
  ) {
    this.profile = profile;
    this.groups = groups;
    this.orphanRules = orphanRules;
    this.sitemaps = sitemaps;
    this.directives = directives;
    this.#lineBits = lineBits;
    this.lineCount = lineCount;
    this.byteLength = byteLength;
  }

  /** How the line numbered `line` (1-based) was read, or undefined past the end. */
  lineRecord(line: number): LineRecord | undefined {
    if (!Number.isInteger(line) || line < 1 || line > this.lineCount) return undefined;
    const bits = this.#lineBits[line - 1]!;
    return {
      line,
      kind: KIND_CODES[bits & 7]!,
      typo: (bits & TYPO) !== 0,
      missingColon: (bits & MISSING_COLON) !== 0,
      tooLong: (bits & TOO_LONG) !== 0,
      comment: (bits & COMMENT) !== 0,
    };
  }

  /** One record per line, in order (SPEC.md §2.2). */
  lines(): LineRecord[] {
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
export function parseRobotsTxt(
  body: Uint8Array | string,
  options: ParseOptions = {},
  hooks: ParseHooks = {},
): RobotsTxt {
  const profile = options.profile ?? "google";
  if (!isProfile(profile)) {
    throw new TypeError(
      `Unknown profile ${JSON.stringify(profile)}: use "google", "rfc9309" or "legacy1996"`,
    );
  }
  const bytes = toBytes(body);
  const groups: Group[] = [];
  const orphanRules: Rule[] = [];
  const sitemaps: Sitemap[] = [];
  const directives: Directive[] = [];
  let bits = new Uint8Array(Math.min(1 << 20, 64 + (bytes.length >>> 4)));
  let current: Group | null = null;
  // True when the last access line (user-agent/allow/disallow) was a rule:
  // the next user-agent line then opens a new group (SPEC.md §3).
  let afterRule = false;
  const onLine = hooks.onLine;
  // The parser drives the scanner in its own loop rather than passing a
  // visitor: no per-line closure call (see LineScanner).
  const scanner = new LineScanner(bytes, profile);
  const ev = scanner.event;
  while (scanner.next()) {
    let code = 0;
    const vs = ev.valueStart;
    const ve = ev.valueEnd;
    switch (ev.kind) {
      case "user-agent": {
        code = 1;
        if (current === null || afterRule) {
          current = { index: groups.length, agents: [], rules: [], directives: [] };
          groups.push(current);
          afterRule = false;
        }
        const global = isGlobalAgent(bytes, vs, ve);
        const te = global ? vs : agentTokenEnd(bytes, vs, ve);
        const value = decodeText(bytes, vs, ve);
        const agent: AgentLine = {
          line: ev.line,
          value,
          token: global ? "*" : te === ve ? value : te === vs ? "" : asciiText(bytes, vs, te),
          global,
        };
        current.agents.push(agent);
        break;
      }
      case "allow":
      case "disallow": {
        code = ev.kind === "allow" ? 2 : 3;
        let pattern: string;
        let value: string;
        if (isNormalized(bytes, vs, ve)) {
          // One string for both when nothing is normalised (most rules): memory.
          pattern = value = asciiText(bytes, vs, ve);
        } else {
          pattern = normalizePattern(bytes, vs, ve);
          value = decodeText(bytes, vs, ve);
        }
        const rule: Rule = {
          kind: ev.kind,
          line: ev.line,
          value,
          pattern,
          group: current === null ? -1 : current.index,
        };
        if (current === null) orphanRules.push(rule);
        else {
          current.rules.push(rule);
          afterRule = true;
        }
        break;
      }
      case "sitemap":
        code = 4;
        sitemaps.push({ url: decodeText(bytes, vs, ve), line: ev.line });
        break;
      case "other": {
        // Only a key that reads as a name (`Crawl-delay`, `X-Thing`, `crawl delay`)
        // is kept as a directive (SPEC §7). HTML served as robots.txt makes
        // thousands of `<a href="http: …` lines per file that are no directive
        // of any grammar: keeping them cost 182k objects and 23.5 MB of text
        // over the corpus. Line records and the linter read the events, so
        // they still see every such line.
        if (!isDirectiveName(bytes, ev.keyStart, ev.keyEnd)) {
          code = 0;
          break;
        }
        const name = decodeText(bytes, ev.keyStart, ev.keyEnd);
        const key = lowerKey(name);
        code = UNUSED_KEYS.has(key) ? 5 : 0;
        const directive: Directive = {
          key,
          name,
          value: decodeText(bytes, vs, ve),
          line: ev.line,
          group: current === null ? -1 : current.index,
        };
        directives.push(directive);
        if (current !== null) current.directives.push(directive);
        break;
      }
      default:
        code = 0;
    }
    if (ev.typo) code |= TYPO;
    if (ev.missingColon) code |= MISSING_COLON;
    if (ev.tooLong) code |= TOO_LONG;
    if (ev.comment >= 0) code |= COMMENT;
    if (ev.line > bits.length) {
      const grown = new Uint8Array(bits.length * 2);
      grown.set(bits);
      bits = grown;
    }
    bits[ev.line - 1] = code;
    if (onLine !== undefined) onLine(ev, bytes);
  }
  const lineCount = ev.line;
  return new RobotsTxt(
    profile,
    groups,
    orphanRules,
    sitemaps,
    directives,
    bits.length === lineCount ? bits : bits.slice(0, lineCount),
    lineCount,
    bytes.length,
  );
}
