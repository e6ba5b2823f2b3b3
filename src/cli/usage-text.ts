/**
 * AI usage preferences in CLI output: the `usage` JSON value and the text
 * sentences of `robots page` and `robots agents` (docs/cli.md). Every byte
 * from outside goes through esc().
 */
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { type AgentUsage, readUsageByAgent } from "../usage/agent-usage.js";
import type {
  CategoryResult,
  UsageOrigin,
  UsagePreferences,
  UsageStatement,
} from "../usage/usage-preferences.js";
import { esc } from "./escape.js";

const SIGNAL_WORD = { allowed: "yes", disallowed: "no", unknown: "unknown" } as const;

function originText(o: UsageOrigin): string {
  if (o.via === "header") return `${o.field} header`;
  const name = o.directive === "content-usage" ? "Content-Usage" : "Content-Signal";
  return `robots.txt line ${o.line}: ${name}${o.path === null ? "" : ` ${esc(o.path)}`}`;
}

function categories(
  results: Readonly<Record<string, CategoryResult>>,
  word: (p: CategoryResult["preference"]) => string,
): { stated: string[]; none: string[] } {
  const stated: string[] = [];
  const none: string[] = [];
  for (const [label, r] of Object.entries(results)) {
    if (r.preference === "unknown") none.push(label);
    else stated.push(`${label}: ${word(r.preference)} (${r.from.map(originText).join("; ")})`);
  }
  return { stated, none };
}

/** What each statement left unsaid: parse failures, unknown labels, invalid values. */
function ignoredText(statements: readonly UsageStatement[]): string[] {
  const out: string[] = [];
  for (const s of statements) {
    const where = originText(s.origin);
    if (s.problem !== undefined) out.push(`  ignored: ${esc(s.problem)} (${where})`);
    for (const k of s.unknownKeys)
      out.push(`  unknown label, kept and ignored: ${esc(k.key)}=${esc(k.value)} (${where})`);
    for (const k of s.invalidValues)
      out.push(`  no preference from ${esc(k.key)}=${esc(k.value)} (${where})`);
  }
  return out;
}

/** Sentences for `robots page`: the preferences that apply to the page. */
export function usageSentences(p: UsagePreferences, agent: string): string[] {
  const out: string[] = [];
  if (p.robotsTxt !== null && !p.robotsTxt.allowed) {
    out.push(
      "AI usage preferences: robots.txt disallows this URL, so no usage preferences apply to it (draft-ietf-aipref-attach-05 §3.1).",
    );
  }
  if (p.statements.length === 0) {
    if (p.robotsTxt === null || p.robotsTxt.allowed) {
      out.push(
        `AI usage preferences: none stated (no Content-Usage or Content-Signal ${p.robotsTxt === null ? "" : `in robots.txt for ${esc(agent)} or `}in the response headers).`,
      );
    }
    return out;
  }
  const usage = p.statements.some((s) => s.kind === "content-usage");
  const signal = p.statements.some((s) => s.kind === "content-signal");
  if (usage) {
    const { stated, none } = categories(p.contentUsage, (x) => x);
    out.push(`AI usage preferences (Content-Usage, ${p.vocabulary} labels):`);
    for (const s of stated) out.push(`  ${s}`);
    if (none.length > 0) out.push(`  no preference stated: ${none.join(", ")}`);
  }
  if (signal) {
    const { stated, none } = categories(p.contentSignal, (x) => SIGNAL_WORD[x]);
    out.push("Content signals (Content-Signal, draft-romm-aipref-contentsignals-00 labels):");
    for (const s of stated) out.push(`  ${s}`);
    if (none.length > 0) out.push(`  no signal: ${none.join(", ")}`);
  }
  out.push(...ignoredText(p.statements));
  return out;
}

/** The `usage` JSON value of `robots agents` and its text section. */
export function agentsUsage(
  robots: RobotsTxt,
  agents: readonly string[],
): { readonly json: readonly AgentUsage[]; readonly text: string[] } {
  const json = readUsageByAgent(robots, agents);
  if (json.length === 0) {
    return {
      json,
      text: ["", "Usage preferences: none (no Content-Usage or Content-Signal lines apply)"],
    };
  }
  const text = ["", "Usage preferences (Content-Usage, Content-Signal):"];
  for (const u of json) {
    const groups =
      u.groupLines.length === 1 ? `line ${u.groupLines[0]}` : `lines ${u.groupLines.join(", ")}`;
    text.push(
      u.source === "global"
        ? `  crawlers without a group of their own (the * group at ${groups}):`
        : `  ${u.agents.map(esc).join(", ")} (group at ${groups}):`,
    );
    const signals = Object.entries(u.contentSignal)
      .filter(([, r]) => r.preference !== "unknown")
      .map(([k, r]) => `${k}=${SIGNAL_WORD[r.preference]}`);
    if (signals.length > 0) text.push(`    Content-Signal: ${signals.join(", ")}`);
    for (const r of u.contentUsage) {
      const stated = Object.entries(r.preferences)
        .filter(([, p]) => p !== "unknown")
        .map(([k, p]) => `${k} ${p}`);
      const what =
        r.problem !== undefined
          ? `ignored: ${esc(r.problem)}`
          : stated.length > 0
            ? stated.join(", ")
            : "no preference stated";
      text.push(
        `    Content-Usage line ${r.line}, ${r.path === null ? "every path" : `path ${esc(r.path)}`}: ${what}`,
      );
    }
    for (const line of ignoredText(
      u.statements.filter((s) => s.kind === "content-signal" || s.problem === undefined),
    )) {
      text.push(`  ${line}`);
    }
  }
  return { json, text };
}
