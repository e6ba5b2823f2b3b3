/**
 * Does following a lint fix ever make a file more permissive? For every
 * diagnostic whose fix can be applied by a machine (a quoted replacement
 * line, "remove the line", a line to add, a character to delete), apply that
 * one fix to the file and compare the verdicts before and after with the
 * diff machinery (probePaths, VerdictComparer): every agent either file
 * names, the stand-in for every other crawler (`*`) and a few catalogue
 * crawlers, on the paths at the edges of both files' patterns.
 *
 * A fix that offers alternatives ("write A, or remove the line") is applied
 * once per alternative: a reader may follow either. Each change is classed:
 * more restrictive (fine), more permissive with a caveat in the fix that
 * says so, or more permissive without one (a defect).
 *
 * Profiles: every fix is compared under `google`. Fixes about wildcards
 * (a `*` or `$` in the rule, the wildcard caveat of shadowed-rule) are
 * compared under `legacy1996` too (docs/protocol.md#profiles), where `*` and
 * `$` are literal bytes.
 */
import { listAgentsToCompare, VerdictComparer } from "../../src/diff/diff-robots.js";
import { probePaths } from "../../src/diff/probe-paths.js";
import { type ByteLine, joinByteLines, splitByteLines } from "../../src/lint/byte-lines.js";
import type { Diagnostic } from "../../src/lint/diagnostics.js";
import { lintRobotsTxt } from "../../src/lint/lint-robots-txt.js";
import { parseRobotsTxt, type RobotsTxt } from "../../src/parse/parse-robots-txt.js";
import type { Profile } from "../../src/protocol/profile.js";

/** Catalogue crawlers compared besides the agents the files name. */
export const CATALOGUE_AGENTS = ["Googlebot", "bingbot", "GPTBot", "Googlebot-Image"] as const;

/** One machine-applicable reading of a fix. */
export interface FixEdit {
  /** What was applied, for reports ("replace line 3 with …", "remove line 3"). */
  readonly label: string;
  /** Compare under legacy1996 too (the fix is about wildcards). */
  readonly legacy: boolean;
  /** The edited file. */
  readonly after: Uint8Array;
}

export type ChangeClass = "restrictive" | "permissive-caveat" | "permissive";

export interface FixOutcome {
  readonly file: string;
  readonly diagnostic: Diagnostic;
  readonly edit: FixEdit;
  readonly profile: Profile;
  readonly cls: ChangeClass | "none";
  /** Newly allowed (agent, path) pairs, up to 3, for reports. */
  readonly allowed: readonly string[];
  readonly nowAllowed: number;
  readonly nowDisallowed: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: false });

function eolOf(lines: readonly ByteLine[]): Uint8Array {
  return lines.find((l) => l.eol.length > 0)?.eol ?? enc.encode("\n");
}

/** The file with line `n` (1-based) replaced by `texts` (none: removed). */
function replaceLine(lines: readonly ByteLine[], n: number, texts: readonly string[]): Uint8Array {
  const i = n - 1;
  const eol = lines[i]!.eol.length > 0 ? lines[i]!.eol : eolOf(lines);
  const added = texts.map((t, k) => ({
    text: enc.encode(t),
    eol: k === texts.length - 1 ? lines[i]!.eol : eol,
  }));
  return joinByteLines([...lines.slice(0, i), ...added, ...lines.slice(i + 1)]);
}

function withLineText(lines: readonly ByteLine[], n: number, text: Uint8Array): Uint8Array {
  const copy = lines.slice();
  copy[n - 1] = { text, eol: lines[n - 1]!.eol };
  return joinByteLines(copy);
}

function indexOfBytes(hay: Uint8Array, needle: readonly number[], from = 0): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

function without(text: Uint8Array, at: number, len: number): Uint8Array {
  const out = new Uint8Array(text.length - len);
  out.set(text.subarray(0, at));
  out.set(text.subarray(at + len), at);
  return out;
}

const BOM = [0xef, 0xbb, 0xbf];
const MOJIBAKE_BOM = [0xc3, 0xaf, 0xc2, 0xbb, 0xc2, 0xbf];

/** Invisible characters at the start of a line (after blanks): U+00A0, U+200B–U+200F, U+2060, U+FEFF, ï»¿. */
function stripLeadingInvisible(text: Uint8Array): Uint8Array {
  let s = 0;
  while (s < text.length && (text[s] === 0x20 || text[s] === 0x09)) s++;
  let e = s;
  for (;;) {
    const a = text[e];
    const b = text[e + 1];
    const c = text[e + 2];
    if (a === 0xc2 && b === 0xa0) e += 2;
    else if (a === 0xe2 && b === 0x80 && c !== undefined && c >= 0x8b && c <= 0x8f) e += 3;
    else if (a === 0xe2 && b === 0x81 && c === 0xa0) e += 3;
    else if (a === 0xef && b === 0xbb && c === 0xbf) e += 3;
    else if (indexOfBytes(text.subarray(e, e + 6), MOJIBAKE_BOM) === 0) e += 6;
    else break;
  }
  return e === s ? text : without(text, s, e - s);
}

/** Latin-1 bytes of a line as UTF-8 ("save the file as UTF-8"); valid UTF-8 stays as it is. */
function latin1ToUtf8(text: Uint8Array): Uint8Array {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(text);
    return text;
  } catch {
    return enc.encode(String.fromCharCode(...text));
  }
}

/** `Key: value` quoted in a fix: a directive line it tells the reader to write. */
const DIRECTIVE_QUOTE =
  /"((?:User-agent|Allow|Disallow|Sitemap|Crawl-delay|Content-Usage|Content-Signal): ?[^"]*)"/g;
/** A bare key quoted in a fix (`write "Disallow"`). */
const KEY_QUOTE = /\bwrite "([A-Za-z-]+)"(?:[,;.]|$)/i;

/** A quote that is a placeholder or an example, not a line to write. */
function isPlaceholder(q: string, fix: string, at: number): boolean {
  if (/[…<>]/.test(q)) return true;
  if (fix.startsWith(" in front", at + q.length + 2)) return true;
  const before = fix.slice(Math.max(0, at - 8), at);
  return /e\.g\.\s*$/i.test(before) || /keep $/i.test(before);
}

function removeAlternative(d: Diagnostic): boolean {
  if (d.id === "bom") return false;
  return /\bremove (?:it|the line|this line)\b|\bor remove it\b|make it a comment/i.test(d.fix);
}

/** Every machine-applicable reading of `d`'s fix, applied to `body`. */
export function editsFor(body: Uint8Array, d: Diagnostic, lines: readonly ByteLine[]): FixEdit[] {
  const out: FixEdit[] = [];
  const line = lines[d.line - 1];
  if (line === undefined) return out;
  const text = dec.decode(line.text);
  // Fixes about wildcards: compared under legacy1996 too.
  const wild =
    d.id === "shadowed-rule" ||
    d.id === "dollar-not-at-end" ||
    (/^pattern-/.test(d.id) && /[*$]/.test(text));
  const add = (label: string, after: Uint8Array, legacy = wild) => {
    out.push({ label, legacy, after });
  };
  const fix = d.fix;

  switch (d.id) {
    case "bom": {
      if (/without a BOM/.test(fix) && d.line === 1 && indexOfBytes(body, BOM) === 0) {
        add("remove the leading BOM", body.subarray(3));
      } else if (/ï»¿/.test(fix)) {
        const at = indexOfBytes(line.text, MOJIBAKE_BOM);
        if (at >= 0) add("remove ï»¿", withLineText(lines, d.line, without(line.text, at, 6)));
      } else if (/^remove it/i.test(fix)) {
        const at = indexOfBytes(line.text, BOM);
        if (at >= 0) add("remove the BOM", withLineText(lines, d.line, without(line.text, at, 3)));
      }
      return out;
    }
    case "nul-byte": {
      const t = line.text.filter((b) => b !== 0);
      add("remove the NUL bytes", withLineText(lines, d.line, t));
      return out;
    }
    case "invalid-utf8":
      if (d.severity === "warning") {
        add("save the line as UTF-8", withLineText(lines, d.line, latin1ToUtf8(line.text)));
      }
      return out;
    case "dollar-not-at-end": {
      const m = /^(\s*[A-Za-z-]+\s*:?\s*)(.*?)(\s*(?:#.*)?)$/.exec(text);
      if (m !== null) {
        const value = m[2]!;
        const i = value.indexOf("$");
        if (i >= 0 && i < value.length - 1) {
          const moved = `${value.slice(0, i)}${value.slice(i + 1)}${value.endsWith("$") ? "" : "$"}`;
          if (/move the \$ to the end/i.test(fix)) {
            add(`move the $: ${moved}`, replaceLine(lines, d.line, [`${m[1]}${moved}`]), true);
          }
          const lit = `${value.slice(0, i)}%24${value.slice(i + 1)}`;
          if (/%24/.test(fix)) {
            add(`write %24: ${lit}`, replaceLine(lines, d.line, [`${m[1]}${lit}`]), true);
          }
        }
      }
      return out;
    }
    case "conflicting-rules":
      add(`remove line ${d.line}`, replaceLine(lines, d.line, []));
      for (const r of d.related ?? []) add(`remove line ${r}`, replaceLine(lines, r, []));
      return out;
    case "empty-final-group":
      add("remove the group", joinByteLines(lines.slice(0, d.line - 1)));
      add(
        "add an empty Disallow:",
        joinByteLines([...lines, { text: enc.encode("\nDisallow:"), eol: new Uint8Array(0) }]),
      );
      return out;
    case "rule-outside-group": {
      const hidden = /start of line (\d+)/.exec(fix);
      if (hidden !== null) {
        const n = Number(hidden[1]);
        const t = lines[n - 1]!.text;
        const stripped = stripLeadingInvisible(t);
        const at = indexOfBytes(stripped, BOM);
        add(
          `remove the invisible character on line ${n}`,
          withLineText(lines, n, at >= 0 && at < 4 ? without(stripped, at, 3) : stripped),
        );
      } else {
        for (const m of fix.matchAll(DIRECTIVE_QUOTE)) {
          const eol = eolOf(lines);
          const inserted: ByteLine = { text: enc.encode(m[1]!), eol };
          add(
            `add "${m[1]}" above line ${d.line}`,
            joinByteLines([...lines.slice(0, d.line - 1), inserted, ...lines.slice(d.line - 1)]),
          );
        }
      }
      return out;
    }
    default:
  }

  if (/delete the invisible character/i.test(fix)) {
    add(
      "delete the invisible character",
      withLineText(lines, d.line, stripLeadingInvisible(line.text)),
    );
  }
  // "write "Disallow"": the key alone.
  const key = KEY_QUOTE.exec(fix);
  if (key !== null) {
    const m = /^(\s*)(user agent|[^:\s]+)(\s*:?)(.*)$/i.exec(text);
    if (m !== null) {
      const colon = m[3]!.includes(":") ? m[3]! : ":";
      add(
        `write the key ${key[1]}`,
        replaceLine(lines, d.line, [`${m[1]}${key[1]}${colon}${m[4]}`]),
      );
    }
  }
  // Quoted lines: one alternative each, or one line each of a single alternative.
  const quotes = [...fix.matchAll(DIRECTIVE_QUOTE)].filter(
    (m) => !isPlaceholder(m[1]!, fix, m.index ?? 0),
  );
  if (/one path per line/.test(fix)) {
    add(
      `write ${quotes.length} lines`,
      replaceLine(
        lines,
        d.line,
        quotes.map((m) => m[1]!),
      ),
    );
  } else {
    for (const m of quotes) add(`write "${m[1]}"`, replaceLine(lines, d.line, [m[1]!]));
  }
  // "Allow (crawl everything) or Disallow (block the whole site)": a key for a bare path.
  if (/add the key it was meant to have/i.test(fix)) {
    const t = text.trim();
    add(`write "Allow: ${t}"`, replaceLine(lines, d.line, [`Allow: ${t}`]));
    add(`write "Disallow: ${t}"`, replaceLine(lines, d.line, [`Disallow: ${t}`]));
  }
  if (removeAlternative(d) || /remove the markers/.test(fix)) {
    add(`remove line ${d.line}`, replaceLine(lines, d.line, []));
  }
  return out;
}

/** Does the fix say, truly and specifically, that following it may allow more? */
export type CaveatCheck = (
  d: Diagnostic,
  edit: FixEdit,
  profile: Profile,
  before: Uint8Array,
) => boolean;

/** Allow rules counted by "agents of the group: pattern". */
function allowRules(r: RobotsTxt): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of r.groups) {
    const agents = g.agents.map((a) => (a.global ? "*" : a.token.toLowerCase())).join(",");
    for (const x of g.rules) {
      if (x.kind !== "allow") continue;
      const key = `${agents}: ${x.pattern}`;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

/** Has `b` an Allow rule that `a` has not? */
function addsAllow(a: RobotsTxt, b: RobotsTxt): boolean {
  const before = allowRules(a);
  return [...allowRules(b)].some(([k, n]) => n > (before.get(k) ?? 0));
}

function agentShape(r: RobotsTxt): string {
  return r.groups
    .map((g) => g.agents.map((a) => (a.global ? "*" : a.token.toLowerCase())).join(","))
    .join("|");
}

/**
 * The caveats fixes carry, each with the condition under which it is the
 * true explanation of a looser verdict: the phrase alone does not excuse a
 * change it does not describe.
 */
const CAVEATS: readonly {
  readonly says: RegExp;
  readonly holds: (d: Diagnostic, e: FixEdit, p: Profile, a: RobotsTxt, b: RobotsTxt) => boolean;
}[] = [
  // shadowed-rule: for crawlers without wildcards the shadowed line still blocks.
  { says: /crawlers without wildcard support/, holds: (_d, _e, p) => p === "legacy1996" },
  // An Allow line that never matched takes effect.
  {
    says: /Allow line then takes effect|overrid(?:es|ing) every Disallow rule that is not longer/,
    holds: (_d, _e, _p, a, b) => addsAllow(a, b),
  },
  // A User-agent line comes back, is renamed or becomes `*`: crawlers change groups.
  {
    says: /User-agent line names then follow|this moves the group|apply to every crawler (?:not named elsewhere|that follows the \* group)/,
    holds: (_d, _e, _p, a, b) => agentShape(a) !== agentShape(b),
  },
  // A rule between the user-agent lines of a group ends the group there.
  {
    says: /splits its group|join the group at line/,
    holds: (_d, _e, _p, a, b) => agentShape(a) !== agentShape(b),
  },
  // dollar-not-at-end: an anchored rule no longer matches a literal "$".
  {
    says: /no longer matches paths (?:with|that contain) a? ?"\$"/,
    holds: (_d, e) => e.label.startsWith("move the $"),
  },
  // nul-byte: the rest of the line counts.
  { says: /then blocks fewer paths than it does today/, holds: (d) => d.id === "nul-byte" },
  {
    says: /may then name another crawler/,
    holds: (_d, _e, _p, a, b) => agentShape(a) !== agentShape(b),
  },
  // invalid-utf8: a Latin-1 site's %E9 URLs.
  {
    says: /this rule matches them today and would no longer/,
    holds: (d) => d.id === "invalid-utf8",
  },
];

/** The caveat check the safety test uses: some caveat of the fix says so, and explains the edit. */
export const checkCaveat: CaveatCheck = (d, edit, profile, before) => {
  const text = `${d.message} ${d.fix}`;
  const a = parseRobotsTxt(before, { profile });
  const b = parseRobotsTxt(edit.after, { profile });
  return CAVEATS.some((c) => c.says.test(text) && c.holds(d, edit, profile, a, b));
};

function agentsFor(files: readonly RobotsTxt[]) {
  const named = listAgentsToCompare(files);
  const seen = new Set(named.map((a) => a.token.toLowerCase()));
  const extra = listAgentsToCompare(files, CATALOGUE_AGENTS).filter(
    (a) => !seen.has(a.token.toLowerCase()),
  );
  return [...named, ...extra];
}

/** Verdict changes from `before` to `after` under `profile`. */
export function compareVerdicts(
  before: Uint8Array,
  after: Uint8Array,
  profile: Profile,
  maxProbes = Number.POSITIVE_INFINITY,
): { nowAllowed: number; nowDisallowed: number; allowed: string[] } {
  const a = parseRobotsTxt(before, { profile });
  const b = parseRobotsTxt(after, { profile });
  const comparer = new VerdictComparer(a, b, agentsFor([a, b]));
  const allowed: string[] = [];
  let probes = 0;
  for (const p of probePaths([a, b])) {
    // A URL never carries a raw space or control character (crawlers send
    // %20): such a probe stands for no request.
    if (/[\u0000-\u0020\u007f]/.test(p)) continue;
    if (++probes > maxProbes) break;
    for (const c of comparer.compare(p)) {
      if (c.after.allowed && allowed.length < 3) allowed.push(`${c.agent.label} ${c.path}`);
    }
  }
  let nowAllowed = 0;
  let nowDisallowed = 0;
  for (const t of comparer.tallies()) {
    nowAllowed += t.nowAllowed;
    nowDisallowed += t.nowDisallowed;
  }
  return { nowAllowed, nowDisallowed, allowed };
}

export interface SafetyOptions {
  /** At most this many diagnostics of one id per file (large files repeat themselves). */
  readonly perId?: number;
  readonly maxProbes?: number;
  readonly caveat: CaveatCheck;
}

/** Every applicable fix of every diagnostic of `body`, applied and compared. */
export function checkFixes(
  file: string,
  body: Uint8Array,
  opts: SafetyOptions,
): {
  diagnostics: number;
  applicable: number;
  outcomes: FixOutcome[];
} {
  const r = lintRobotsTxt(body, { lines: false });
  const lines = splitByteLines(body);
  const perId = new Map<string, number>();
  const outcomes: FixOutcome[] = [];
  let applicable = 0;
  for (const d of r.diagnostics) {
    const seen = perId.get(d.id) ?? 0;
    if (seen >= (opts.perId ?? Number.POSITIVE_INFINITY)) continue;
    perId.set(d.id, seen + 1);
    const edits = editsFor(body, d, lines);
    if (edits.length > 0) applicable++;
    for (const edit of edits) {
      const profiles: Profile[] = edit.legacy ? ["google", "legacy1996"] : ["google"];
      for (const profile of profiles) {
        const v = compareVerdicts(body, edit.after, profile, opts.maxProbes);
        const cls: FixOutcome["cls"] =
          v.nowAllowed > 0
            ? opts.caveat(d, edit, profile, body)
              ? "permissive-caveat"
              : "permissive"
            : v.nowDisallowed > 0
              ? "restrictive"
              : "none";
        outcomes.push({ file, diagnostic: d, edit, profile, cls, ...v });
      }
    }
  }
  return { diagnostics: r.diagnostics.length, applicable, outcomes };
}
