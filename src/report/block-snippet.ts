/**
 * `robots agents --block ai-training`: a robots.txt group that disallows
 * everything for the catalogue's crawlers of some categories while naming
 * no search crawler, and the check that appending it to a file does what it
 * says, done with our own parser and matcher (docs/protocol.md#choosing-rules–docs/protocol.md#deciding-line):
 *
 * - every token the group names is disallowed `/` afterwards. Google merges
 *   every group naming an agent (docs/protocol.md#choosing-rules), so an Allow rule an existing
 *   group has for that agent survives, and beats `Disallow: /` on every path
 *   it matches (longest match wins, a tie goes to allow): the check lists
 *   each such rule;
 * - every other agent (the catalogue's kept crawlers, the agents the file
 *   names, any other crawler) gets the same verdict as before on every probe
 *   path of the file (src/diff/probe-paths.ts).
 *
 * A name whose token a kept search crawler shares is left out (blocking it
 * would block that search crawler); a name read as no token cannot be named.
 * No `node:` imports.
 */
import { CRAWLER_CATEGORIES, type CrawlerCategory, type CrawlerInfo } from "../data/crawlers.js";
import {
  type DiffAgent,
  listAgentsToCompare,
  type VerdictChange,
  VerdictComparer,
} from "../diff/diff-robots.js";
import { probePaths } from "../diff/probe-paths.js";
import { compileMatcher } from "../match/compile.js";
import { selectGroups } from "../match/select-groups.js";
import { crawlerView } from "../parse/crawler-view.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { asciiLower, isProductTokenChar } from "../protocol/product-token.js";
import type { Profile } from "../protocol/profile.js";

export interface BlockLine {
  /** The value written after `User-agent:`. */
  readonly value: string;
  /** The token a parser reads it as (docs/protocol.md#groups). */
  readonly token: string;
  /** The catalogue names the line covers. */
  readonly crawlers: readonly string[];
}

export interface BlockSkip {
  readonly crawler: string;
  readonly reason: string;
}

export interface BlockPlan {
  readonly categories: readonly CrawlerCategory[];
  readonly lines: readonly BlockLine[];
  /** Crawlers of the blocked categories the snippet does not name, and why. */
  readonly skipped: readonly BlockSkip[];
  /** Crawlers of other categories blocked too, because a line names them as well. */
  readonly alsoBlocked: readonly {
    readonly crawler: string;
    readonly token: string;
    readonly category: CrawlerCategory;
  }[];
  /** The robots.txt lines, ending with a line break. */
  readonly snippet: string;
}

/**
 * What to write for a crawler: its name when it is made of letters, digits,
 * "-" and "_" (`AI2Bot`: Google-style parsers read `AI`, the crawler's own
 * parser its full name, and the linter keeps it), else the token a parser
 * reads (`MistralAI-User/1.0` → `MistralAI-User`, `ChatGPT Agent` → `ChatGPT`).
 */
export function blockLineValue(c: CrawlerInfo): string {
  for (let i = 0; i < c.name.length; i++) {
    const ch = c.name.charCodeAt(i);
    if (!isProductTokenChar(ch) && !(ch >= 0x30 && ch <= 0x39)) return c.token;
  }
  return c.name;
}

/** The snippet that blocks the crawlers of `categories` in `crawlers`. */
/**
 * Does a line naming `token` apply to the crawler whose token is `agent`?
 * Equal ignoring ASCII case (docs/protocol.md#choosing-rules); under the 1996 draft, contained
 * in its name (docs/protocol.md#profiles: `Spider` applies to Baiduspider).
 */
function namesCrawler(token: string, agent: string, profile: Profile): boolean {
  if (token === "" || agent === "") return false;
  if (profile === "legacy1996") return asciiLower(agent).includes(asciiLower(token));
  return asciiLower(token) === asciiLower(agent);
}

export function planBlock(
  categories: readonly CrawlerCategory[],
  crawlers: readonly CrawlerInfo[],
  options: { readonly profile?: Profile } = {},
): BlockPlan {
  const profile = options.profile ?? "google";
  const blockedCategories = new Set(categories);
  const keptSearch = blockedCategories.has("search")
    ? []
    : crawlers.filter((c) => c.category === "search" && c.token !== "");
  const lines: { value: string; token: string; crawlers: string[] }[] = [];
  const byValue = new Map<string, (typeof lines)[number]>();
  const skipped: BlockSkip[] = [];
  for (const c of crawlers) {
    if (!blockedCategories.has(c.category)) continue;
    if (c.token === "") {
      skipped.push({
        crawler: c.name,
        reason: "its name is read as no token, so no User-agent line can name it",
      });
      continue;
    }
    const search = keptSearch.find((k) => namesCrawler(c.token, k.token, profile))?.name;
    if (search !== undefined) {
      skipped.push({
        crawler: c.name,
        reason: `it is read as ${JSON.stringify(c.token)}, which ${profile === "legacy1996" ? "the 1996 draft applies to" : "is the token of"} search crawler ${search}: naming it would block ${search}`,
      });
      continue;
    }
    const value = blockLineValue(c);
    const known = byValue.get(asciiLower(value));
    if (known !== undefined) {
      known.crawlers.push(c.name);
      continue;
    }
    const line = { value, token: c.token, crawlers: [c.name] };
    lines.push(line);
    byValue.set(asciiLower(value), line);
  }
  const alsoBlocked = crawlers
    .filter(
      (c) =>
        !blockedCategories.has(c.category) &&
        lines.some((l) => namesCrawler(l.token, c.token, profile)),
    )
    .map((c) => ({ crawler: c.name, token: c.token, category: c.category }));
  const ordered = (Object.keys(CRAWLER_CATEGORIES) as CrawlerCategory[]).filter((k) =>
    blockedCategories.has(k),
  );
  const out = [
    `# Blocks the ${ordered.join(", ")} crawlers of the robots-exclusion crawler catalogue`,
    `# (robots agents --block ${ordered.join(",")}; AI crawler names from ai.robots.txt).`,
  ];
  if (!blockedCategories.has("search")) out.push("# No search crawler is named here.");
  for (const l of lines) {
    const others = l.crawlers.filter((n) => asciiLower(n) !== asciiLower(l.value));
    if (others.length > 0) out.push(`# for ${others.map((n) => JSON.stringify(n)).join(", ")}`);
    out.push(`User-agent: ${l.value}`);
  }
  out.push("Disallow: /");
  return {
    categories: ordered,
    lines,
    skipped,
    alsoBlocked,
    snippet: lines.length === 0 ? "" : `${out.join("\n")}\n`,
  };
}

/** An Allow rule of the file's own that still applies to a blocked token. */
export interface SurvivingAllow {
  readonly line: number;
  readonly value: string;
  /** Other agents its group names: removing the rule would change their verdicts too. */
  readonly alsoFor: readonly string[];
}

export interface BlockedResult {
  readonly value: string;
  readonly token: string;
  /** Is `/` disallowed after the snippet is appended? */
  readonly rootDisallowed: boolean;
  /** The line deciding `/` in the combined file. */
  readonly line: number;
  /** Non-empty Allow rules of the file's own groups for this token: they still apply. */
  readonly survivingAllows: readonly SurvivingAllow[];
  /** The checked paths still allowed to it. */
  readonly allowedPaths: readonly string[];
}

export interface BlockCheck {
  /** The first line of the snippet in the combined file. */
  readonly firstLine: number;
  /** Does a crawler that reads only the first 500 KiB still read the whole snippet? */
  readonly withinSizeLimit: boolean;
  /** Agent lines at the end of the file that would join the snippet's group. */
  readonly joiningAgents: readonly { readonly line: number; readonly value: string }[];
  readonly blocked: readonly BlockedResult[];
  /** The agents the group does not name: the catalogue's others, the file's, and `*`. */
  readonly keptAgents: number;
  /**
   * Those whose groups' rules differ after appending, so their verdicts were
   * compared on every path; the others keep the very same rules.
   */
  readonly probedAgents: number;
  /** The probe paths of the file (src/diff/probe-paths.ts), `/` included. */
  readonly paths: number;
  /** Verdicts of agents the snippet does not name that change (should be none). */
  readonly changes: readonly VerdictChange[];
  /** Every named token is blocked everywhere (isBlockedEverywhere), and no other verdict changed. */
  readonly ok: boolean;
}

/** Line breaks in `bytes` (CR, LF and CRLF each end a line, as the parser reads them). */
function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x0a || (c === 0x0d && bytes[i + 1] !== 0x0a)) n++;
  }
  return n;
}

/** Do the groups `agent` selects hold the same rules, in order, in both files? */
function sameRules(before: RobotsTxt, after: RobotsTxt, agent: string): boolean {
  const a = selectGroups(before, agent).groups;
  const b = selectGroups(after, agent).groups;
  if (a.length !== b.length) return false;
  for (let g = 0; g < a.length; g++) {
    const ra = a[g]!.rules;
    const rb = b[g]!.rules;
    if (ra.length !== rb.length) return false;
    for (let i = 0; i < ra.length; i++) {
      if (ra[i]!.kind !== rb[i]!.kind || ra[i]!.pattern !== rb[i]!.pattern) return false;
    }
  }
  return true;
}

/** Disallowed `/` and every checked path, and no Allow rule of the file's own applies to it. */
export function isBlockedEverywhere(b: BlockedResult): boolean {
  return b.rootDisallowed && b.survivingAllows.length === 0 && b.allowedPaths.length === 0;
}

/**
 * Appends `plan.snippet` to `original` (after a blank line) and checks what
 * it changes. `wholeFile` reads the combined file whole, as Google's
 * reference does; by default only its first 500 KiB, as crawlers do.
 */
export function checkBlock(
  original: Uint8Array,
  plan: BlockPlan,
  crawlers: readonly CrawlerInfo[],
  options: { readonly profile?: Profile; readonly wholeFile?: boolean } = {},
): BlockCheck {
  const profile = options.profile ?? "google";
  const last = original[original.length - 1];
  const sep = original.length === 0 ? "" : last === 0x0a || last === 0x0d ? "\n" : "\n\n";
  const encoder = new TextEncoder();
  const tail = encoder.encode(sep + plan.snippet);
  const combined = new Uint8Array(original.length + tail.length);
  combined.set(original, 0);
  combined.set(tail, original.length);
  // Lines before the snippet: the original's, plus the separator's.
  const firstLine = countLines(combined.subarray(0, original.length + sep.length)) + 1;
  const view =
    options.wholeFile === true
      ? { bytes: combined, truncated: false }
      : crawlerView(combined, undefined, profile);
  const withinSizeLimit = !view.truncated;
  // The file as crawlers read it before, and after: the same view of both.
  const before = parseRobotsTxt(
    options.wholeFile === true ? original : crawlerView(original, undefined, profile).bytes,
    { profile },
  );
  const after = parseRobotsTxt(view.bytes, { profile });

  const snippetGroup = after.groups.find((g) =>
    g.agents.some((a) => a.line >= firstLine && !a.global),
  );
  const joiningAgents = (snippetGroup?.agents ?? [])
    .filter((a) => a.line < firstLine)
    .map((a) => ({ line: a.line, value: a.value }));

  const paths = probePaths([before, after]);
  const blocked: BlockedResult[] = [];
  const seen = new Set<string>();
  // The named tokens, and the crawlers of other categories a line names too.
  const targets = [
    ...plan.lines,
    ...plan.alsoBlocked.map((a) => ({ value: a.crawler, token: a.token })),
  ];
  for (const l of targets) {
    const key = asciiLower(l.token);
    if (seen.has(key)) continue;
    seen.add(key);
    const m = compileMatcher(after, l.token);
    const v = m.check("/");
    const survivingAllows: SurvivingAllow[] = [];
    for (const i of m.groups) {
      const group = after.groups[i];
      const alsoFor = (group?.agents ?? [])
        .filter((a) => a.global || asciiLower(a.token) !== key)
        .map((a) => (a.global ? "*" : a.token));
      for (const r of group?.rules ?? []) {
        if (r.kind === "allow" && r.pattern.length > 0 && r.line < firstLine) {
          survivingAllows.push({ line: r.line, value: r.value, alsoFor });
        }
      }
    }
    blocked.push({
      value: l.value,
      token: l.token,
      rootDisallowed: !v.allowed,
      line: v.line,
      survivingAllows,
      allowedPaths: paths.filter((p) => m.isAllowed(p)),
    });
  }

  // Everyone else: the kept catalogue crawlers, the agents the file names,
  // and a stand-in for any other crawler (the `*` groups).
  const agents: DiffAgent[] = [];
  const taken = new Set(seen);
  for (const a of listAgentsToCompare([before, after])) {
    if (a.generic || !taken.has(asciiLower(a.token))) agents.push(a);
    taken.add(asciiLower(a.token));
  }
  for (const c of crawlers) {
    const key = asciiLower(c.token);
    if (c.token === "" || taken.has(key)) continue;
    taken.add(key);
    agents.push({ token: c.token, name: c.token, label: c.token, generic: false });
  }
  // An agent whose groups hold the same rules before and after has the
  // same verdict on every path; only the others are probed
  // (docs/performance-decisions.md, Linting and text).
  const probed = agents.filter((a) => !sameRules(before, after, a.token));
  const comparer = new VerdictComparer(before, after, probed);
  const changes: VerdictChange[] = [];
  if (probed.length > 0) for (const p of paths) changes.push(...comparer.compare(p));

  const ok =
    withinSizeLimit &&
    joiningAgents.length === 0 &&
    changes.length === 0 &&
    blocked.every(isBlockedEverywhere);
  return {
    firstLine,
    withinSizeLimit,
    joiningAgents,
    blocked,
    keptAgents: agents.length,
    probedAgents: probed.length,
    paths: paths.length,
    changes,
    ok,
  };
}
