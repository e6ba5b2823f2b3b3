/**
 * Findings that need the whole file: groups and the rules inside them
 * (docs/protocol.md#groups–docs/protocol.md#matching). They run once after the single parsing pass, over the
 * parsed groups, in time linear in the number of rules (the shadowed-rule
 * search is indexed and has a work budget, see below).
 */
import { type CompiledPattern, compilePattern, matchRest } from "../match/pattern.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Group, Rule } from "../parse/types.js";
import { extendsToDirectory } from "../protocol/index-html.js";
import { asciiLower } from "../protocol/product-token.js";
import { ruleText as fullRuleText } from "../protocol/rule-text.js";
import type { Diagnostic } from "./diagnostics.js";
import { escapeText, quote } from "./text.js";

type Report = (d: Diagnostic) => void;

/**
 * Work units (characters compared or hashed) the shadowed-rule search may
 * spend on one file. Ordinary files use a few thousand; a file built to be
 * slow stops being searched instead of taking quadratic time; the largest
 * corpus file stays within it (docs/performance-decisions.md, Linting and text).
 */
const SHADOW_BUDGET = 4_000_000;

/** A rule as a finding quotes it: its value cut at 60 characters, escaped (escapeText). */
function ruleText(r: Rule): string {
  return escapeText(fullRuleText(r, 60));
}

function agentName(token: string, global: boolean): string {
  return global ? "*" : token;
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 3).map((n) => quote(escapeText(n)));
  return names.length > 3 ? `${shown.join(", ")} and ${names.length - 3} more` : shown.join(", ");
}

/**
 * merged-groups: one agent named in several groups. Google and RFC 9309 merge
 * their rules (docs/protocol.md#choosing-rules); crawlers written to the 1996 draft take the first.
 */
function checkMergedGroups(robots: RobotsTxt, report: Report): void {
  const first = new Map<string, number>();
  for (const g of robots.groups) {
    const here = new Set<string>();
    for (const a of g.agents) {
      if (!a.global && a.token === "") continue; // empty-user-agent / token-cut say it
      const key = a.global ? "*" : asciiLower(a.token);
      if (here.has(key)) continue;
      here.add(key);
      const firstLine = first.get(key);
      if (firstLine === undefined) {
        first.set(key, a.line);
        continue;
      }
      const name = agentName(a.token, a.global);
      report({
        id: "merged-groups",
        severity: "warning",
        line: a.line,
        message: `${quote(escapeText(name))} is also named in the group at line ${firstLine}: Google and RFC 9309 crawlers merge the rules of all its groups, but crawlers that follow the 1996 draft use only the first group`,
        fix: `put every rule for ${quote(escapeText(name))} in one group`,
        related: [firstLine],
      });
    }
  }
}

/**
 * empty-final-group: a group with user-agent lines and no rules. Only the
 * last group can be empty (a user-agent line right after another joins its
 * group, docs/protocol.md#groups), and an empty group allows everything to the crawlers
 * it names, which then ignore the `*` group (docs/protocol.md#choosing-rules).
 */
function checkEmptyFinalGroup(robots: RobotsTxt, report: Report): void {
  const last = robots.groups[robots.groups.length - 1];
  if (last === undefined || last.rules.length > 0) return;
  const names = last.agents.map((a) => agentName(a.token, a.global));
  const namedOnly = last.agents.some((a) => !a.global);
  const globalWithRules = robots.groups.find(
    (g) => g !== last && g.rules.length > 0 && g.agents.some((a) => a.global),
  );
  let message = `the group for ${listNames(names)} has no allow or disallow rules, so it allows everything`;
  if (last.directives.length > 0) {
    const keys = [...new Set(last.directives.map((d) => d.name))];
    message += ` (its ${listNames(keys)} line${last.directives.length > 1 ? "s do" : " does"} not restrict crawling)`;
  }
  if (namedOnly && globalWithRules !== undefined) {
    message += `, and crawlers named here ignore the rules of the * group at line ${globalWithRules.agents[0]!.line}`;
  }
  // The trap is a named crawler losing the * rules; an empty * group is
  // merely the same as having no rules.
  const trap = namedOnly && globalWithRules !== undefined;
  report({
    id: "empty-final-group",
    severity: trap ? "warning" : "info",
    line: last.agents[0]!.line,
    message,
    fix: "add the rules this group needs (an empty Disallow: if it should allow everything), or remove the group",
  });
}

/** Google's index.html rule (docs/protocol.md#matching) gives such an allow rule extra matches: never call it shadowed. */
function hasIndexHtmlRule(r: Rule): boolean {
  return r.kind === "allow" && extendsToDirectory(r.pattern);
}

/**
 * Does `s` always win over `r` when both match? Longer pattern wins; on equal
 * length allow beats disallow, and between rules of one kind the earlier line
 * is the one reported (docs/protocol.md#matching, #deciding-line).
 */
function beats(s: Rule, r: Rule): boolean {
  const sp = s.pattern.length;
  const rp = r.pattern.length;
  if (sp !== rp) return sp > rp;
  if (s.kind !== r.kind) return s.kind === "allow";
  return s.line < r.line;
}

interface Glob {
  readonly rule: Rule;
  readonly compiled: CompiledPattern;
}

/** A trie over the literal prefixes of a group's wildcard rules. */
interface TrieNode {
  next: Map<number, TrieNode> | undefined;
  globs: Glob[] | undefined;
}

/** The first of `cands` (whose literal prefix is a prefix of L) that covers `r` and beats it. */
function coveringGlob(
  cands: readonly Glob[],
  r: Rule,
  p: string,
  litEnd: number,
  exact: boolean,
  budget: Budget,
): Rule | undefined {
  for (const s of cands) {
    if (s.rule === r || !beats(s.rule, r)) continue;
    if (s.compiled.anchored && !exact) continue;
    budget.left -= s.rule.pattern.length + litEnd;
    if (budget.left < 0) return undefined;
    if (matchRest(s.compiled, p, s.compiled.prefix.length, litEnd)) return s.rule;
  }
  return undefined;
}

interface Budget {
  left: number;
}

/**
 * Rules of one group: duplicate-rule, conflicting-rules, shadowed-rule, and
 * empty-rule for an empty Disallow next to other rules. Per-group findings
 * stay true when groups are merged (merging only adds competitors).
 */
function checkGroupRules(group: Group, report: Report, budget: Budget): void {
  const rules = group.rules;
  // Separate maps per kind: a concatenated "kind pattern" key costs a string
  // per rule (docs/performance-decisions.md, Linting and text).
  const firstAllow = new Map<string, Rule>();
  const firstDisallow = new Map<string, Rule>();
  const done = new Set<Rule>();
  const hasNonEmpty = rules.some((r) => r.pattern.length > 0);
  const globs: Glob[] = [];
  for (const r of rules) {
    if (r.pattern.length === 0) {
      if (r.kind === "disallow" && hasNonEmpty) {
        report({
          id: "empty-rule",
          severity: "info",
          line: r.line,
          message:
            "an empty Disallow: allows everything, so next to other rules in the same group it has no effect",
          fix: "remove this line",
          edit: { line: r.line, lines: [] },
        });
      }
      continue;
    }
    const mine = r.kind === "allow" ? firstAllow : firstDisallow;
    const same = mine.get(r.pattern);
    const other = (r.kind === "allow" ? firstDisallow : firstAllow).get(r.pattern);
    if (same !== undefined) {
      done.add(r);
      report({
        id: "duplicate-rule",
        severity: "info",
        line: r.line,
        message: `${ruleText(r)} repeats line ${same.line} of the same group${same.value === r.value ? "" : " (the same pattern once normalised)"}`,
        fix: "remove this line",
        related: [same.line],
        edit: { line: r.line, lines: [] },
      });
      continue;
    }
    mine.set(r.pattern, r);
    if (other !== undefined) {
      const allowLine = r.kind === "allow" ? r.line : other.line;
      const disallowLine = r.kind === "allow" ? other.line : r.line;
      done.add(r.kind === "allow" ? other : r);
      report({
        id: "conflicting-rules",
        severity: "warning",
        line: r.line,
        message: `${quote(escapeText(r.pattern))} is both allowed (line ${allowLine}) and disallowed (line ${disallowLine}) in this group: Google lets Allow win a tie, so the Disallow never applies, while crawlers that take the first matching rule obey line ${Math.min(allowLine, disallowLine)}`,
        fix: "keep only the rule you mean",
        related: [other.line],
      });
    }
    if (r.pattern.includes("*")) globs.push({ rule: r, compiled: compilePattern(r.pattern) });
  }
  if (globs.length > 0) checkShadowed(rules, globs, done, report, budget);
}

/**
 * shadowed-rule: a rule `r` can never decide when some wildcard rule `s` of
 * the same group matches every path `r` matches and wins over it. Sound test
 * (no false positives): every path `r` matches starts with its literal
 * prefix L (or is exactly L for `L$`), so `s` covers `r` when `s` matches L —
 * as a prefix for an unanchored `s`, exactly for `r = L$`.
 *
 * Only patterns with `*` can cover a different pattern and still win (a
 * plain prefix that covers `r` is shorter than `r`). Their literal prefixes
 * go into a trie; each rule walks L down the trie, testing only the wildcard
 * rules whose prefix is a prefix of L. The work is bounded by SHADOW_BUDGET.
 * (Cheaper than hashing every prefix of L: docs/performance-decisions.md,
 * Linting and text.)
 */
function checkShadowed(
  rules: readonly Rule[],
  globs: readonly Glob[],
  done: ReadonlySet<Rule>,
  report: Report,
  budget: Budget,
): void {
  const root: TrieNode = { next: undefined, globs: undefined };
  for (const g of globs) {
    const prefix = g.compiled.prefix;
    let node = root;
    for (let i = 0; i < prefix.length; i++) {
      const c = prefix.charCodeAt(i);
      node.next ??= new Map();
      let child = node.next.get(c);
      if (child === undefined) {
        child = { next: undefined, globs: undefined };
        node.next.set(c, child);
      }
      node = child;
    }
    if (node.globs === undefined) node.globs = [g];
    else node.globs.push(g);
  }
  for (const r of rules) {
    if (r.pattern.length === 0 || done.has(r) || hasIndexHtmlRule(r)) continue;
    // Literal prefix L and "exactly L" (`L$`), without compiling the pattern.
    const p = r.pattern;
    const star = p.indexOf("*");
    const exact = star < 0 && p.endsWith("$");
    const litEnd = star >= 0 ? star : exact ? p.length - 1 : p.length;
    let winner: Rule | undefined;
    let node: TrieNode | undefined = root;
    for (let i = 0; node !== undefined && winner === undefined; i++) {
      if (--budget.left < 0) return;
      if (node.globs !== undefined) winner = coveringGlob(node.globs, r, p, litEnd, exact, budget);
      if (i >= litEnd) break;
      node = node.next?.get(p.charCodeAt(i));
    }
    if (budget.left < 0) return;
    if (winner === undefined) continue;
    const opposite = winner.kind !== r.kind;
    const why =
      winner.pattern.length > r.pattern.length
        ? "its pattern is longer"
        : opposite
          ? "Allow wins a tie"
          : "it comes first";
    report({
      id: "shadowed-rule",
      severity: opposite ? "warning" : "info",
      line: r.line,
      message: opposite
        ? `${ruleText(r)} can never decide: ${ruleText(winner)} (line ${winner.line}) matches every path it matches and wins (${why}), so it never ${r.kind === "allow" ? "allows" : "disallows"} anything`
        : `${ruleText(r)} is redundant: ${ruleText(winner)} (line ${winner.line}) matches every path it matches and wins (${why})`,
      fix: `${
        opposite
          ? `remove it, or change line ${winner.line} so that it does not cover these paths`
          : "remove this line"
      }${wildcardCaveat(r, winner)}`,
      related: [winner.line],
      // Removing a shadowed Disallow is a choice for crawlers without wildcards (wildcardCaveat).
      ...(!opposite && r.kind === "allow" ? { edit: { line: r.line, lines: [] } } : {}),
    });
  }
}

/**
 * Removing a Disallow that a wildcard rule shadows is safe only for
 * crawlers that read wildcards: one that does not (the 1996 draft,
 * docs/protocol.md#profiles) reads the wildcard rule literally, so for it
 * this line is the one that blocks.
 */
function wildcardCaveat(r: Rule, winner: Rule): string {
  // Also for `/x$` or `/a*b`: read literally, they still block paths with
  // those bytes, which the wildcard rule read literally does not cover.
  if (r.kind !== "disallow") return "";
  return `; but crawlers without wildcard support read line ${winner.line} literally, and for them this line still blocks these paths: keep it if such crawlers matter to you`;
}

/** Every whole-file check, in a fixed order. */
export function checkGroups(robots: RobotsTxt, report: Report): void {
  checkMergedGroups(robots, report);
  checkEmptyFinalGroup(robots, report);
  const budget: Budget = { left: SHADOW_BUDGET };
  for (const g of robots.groups) checkGroupRules(g, report, budget);
}
