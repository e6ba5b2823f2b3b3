/**
 * The AI usage preferences a robots.txt states for each crawler, without a
 * URL: the Content-Signal lines of its groups (combined) and each
 * Content-Usage rule with its path. Crawlers whose groups are the same share
 * one entry, so a report lists each set of preferences once.
 */
import type { GroupSource } from "../match/select-groups.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { usageLinesFor } from "./robots-rules.js";
import {
  type CategoryResult,
  combineStatements,
  signalStatement,
  type UsageStatement,
  usageStatement,
} from "./usage-preferences.js";
import {
  AIPREF_VOCABULARIES,
  type AiprefVocabulary,
  type ContentSignalLabel,
  categoryPreference,
  DEFAULT_VOCABULARY,
  type Preference,
} from "./vocabulary.js";

/** The usage preferences one crawler's groups state, without a URL (readUsageByAgent). */
export interface AgentUsage {
  /** The crawlers (as given) these preferences apply to; `*` for crawlers no group names. */
  readonly agents: readonly string[];
  /** Why its groups applied. */
  readonly source: GroupSource;
  /** Line of the first user-agent line of each group that applies. */
  readonly groupLines: readonly number[];
  /** The Content-Signal lines of those groups, combined (most restrictive per label). */
  readonly contentSignal: Readonly<Record<ContentSignalLabel, CategoryResult>>;
  /** Each Content-Usage rule, with what it states per category (before path matching). */
  readonly contentUsage: ReadonlyArray<{
    readonly line: number;
    readonly path: string | null;
    readonly statement: string;
    readonly preferences: Readonly<Record<string, Preference>>;
    readonly problem?: string;
    readonly unknownKeys: readonly string[];
  }>;
  /** Every statement, as read. */
  readonly statements: readonly UsageStatement[];
}

/**
 * Usage preferences per crawler in `agents` (product tokens, compared as
 * selectGroups does), crawlers with the same groups merged; crawlers whose
 * groups state none are left out. Vocabulary default `vocab-08`.
 */
export function readUsageByAgent(
  robots: RobotsTxt,
  agents: readonly string[],
  vocabulary: AiprefVocabulary = DEFAULT_VOCABULARY,
): AgentUsage[] {
  const byGroups = new Map<string, { agents: string[]; agent: string }>();
  for (const agent of agents) {
    const lines = usageLinesFor(robots, agent);
    if (lines.contentUsage.length === 0 && lines.contentSignal.length === 0) continue;
    const key = `${lines.source}:${lines.groups.join(",")}`;
    const seen = byGroups.get(key);
    if (seen === undefined) byGroups.set(key, { agents: [agent], agent });
    else seen.agents.push(agent);
  }
  const categories = AIPREF_VOCABULARIES[vocabulary].categories;
  return [...byGroups.values()].map(({ agents: names, agent }) => {
    const lines = usageLinesFor(robots, agent);
    const statements: UsageStatement[] = [];
    const contentUsage = lines.contentUsage.map((r) => {
      const read = usageStatement(r, vocabulary);
      statements.push(read);
      const preferences: Record<string, Preference> = {};
      for (const c of categories)
        preferences[c.label] = categoryPreference(read, c.label, vocabulary);
      return {
        line: r.line,
        path: r.path,
        statement: r.statement,
        preferences,
        ...(read.problem === undefined ? {} : { problem: read.problem }),
        unknownKeys: read.unknownKeys.map((k) => k.key),
      };
    });
    for (const s of lines.contentSignal) statements.push(signalStatement(s));
    const signals = combineStatements(
      statements.filter((s) => s.kind === "content-signal"),
      vocabulary,
    ).contentSignal;
    return {
      agents: names,
      source: lines.source,
      groupLines: lines.groups.map((i) => robots.groups[i]?.agents[0]?.line ?? 0),
      contentSignal: signals,
      contentUsage,
      statements,
    };
  });
}
