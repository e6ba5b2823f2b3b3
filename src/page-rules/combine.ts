/**
 * The rules that apply to one crawler, combined (Google's documentation:
 * "In the case of conflicting robots rules, the more restrictive rule
 * applies"; draft-illyes-repext-03 §3.1.2: the sum of the rules for the
 * crawler's own name and the generic ones). Statements for another crawler
 * are ignored; the crawler name is compared exactly, case-insensitively,
 * so `googlebot-news` rules do not apply to `googlebot`.
 *
 * Every field starts at its permissive default and only moves toward the
 * restrictive end, so adding a rule can never loosen the result, and the
 * order of headers and metas changes nothing.
 */

import type { PageRuleSource, PageStatement } from "./rules.js";
import { IMAGE_PREVIEW_RANK, type ImagePreview, type PageRule } from "./rules.js";

/** Where a rule came from, for reports. */
export interface RuleOrigin {
  /** The kind of source: header field or meta tag. */
  readonly via: PageRuleSource;
  /** "generic": for every crawler; "specific": the crawler's own name. */
  readonly scope: "generic" | "specific";
  /** The rule as written. */
  readonly text: string;
}

/** What a rule restricts. */
export type PageField =
  | "index"
  | "follow"
  | "snippet"
  | "maxSnippet"
  | "imageIndex"
  | "maxImagePreview"
  | "maxVideoPreview"
  | "translate"
  | "unavailableAfter"
  | "archive";

/** What the page's rules allow one crawler to do with it (combinePageRules). */
export interface PagePolicy {
  /** The crawler the rules were combined for (as given). */
  readonly agent: string;
  /** False for noindex/none, or once unavailable_after has passed. */
  readonly index: boolean;
  /** May the crawler follow its links? */
  readonly follow: boolean;
  /** False for nosnippet or max-snippet:0. */
  readonly snippet: boolean;
  /** Characters; -1 = no limit; null = not set. 0 when snippet is false. */
  readonly maxSnippet: number | null;
  /** May its images be indexed? */
  readonly imageIndex: boolean;
  /** The largest image preview allowed, or null when no rule limits it. */
  readonly maxImagePreview: ImagePreview | null;
  /** Seconds; -1 = no limit; 0 = a still image only; null = not set. */
  readonly maxVideoPreview: number | null;
  /** May it be offered in translation? */
  readonly translate: boolean;
  /** The earliest unavailable_after date (ms since the epoch), or null. */
  readonly unavailableAfter: number | null;
  /** unavailable_after has passed at the clock's `now`. */
  readonly expired: boolean;
  /** indexifembedded: content may be indexed when embedded, despite noindex. */
  readonly indexIfEmbedded: boolean;
  /** noarchive/nocache was given (kept and reported; Google no longer uses it). */
  readonly noarchive: boolean;
  /** Each restriction that applies, and where it came from. */
  readonly restrictions: ReadonlyArray<{ readonly field: PageField } & RuleOrigin>;
  /** Rules outside the vocabulary, kept for the report; they have no effect. */
  readonly unknown: readonly RuleOrigin[];
  /** Known rules with an unusable value; they have no effect. */
  readonly invalid: ReadonlyArray<RuleOrigin & { readonly problem: string }>;
}

/** Options of combinePageRules. */
export interface PolicyOptions {
  /** The clock for unavailable_after (ms since the epoch). Default Date.now. */
  readonly now?: () => number;
}

/** Does the statement apply to `agent`? Generic ones always do. */
export function appliesTo(statement: PageStatement, agentLower: string): boolean {
  return statement.scope === null || statement.scope === agentLower;
}

/** -1 means no limit: the smaller of two limits, reading -1 as infinite. */
function smaller(current: number | null, next: number): number {
  if (current === null || current === -1) return next;
  if (next === -1) return current;
  return Math.min(current, next);
}

/** What each flag rule restricts (all, index, follow are the defaults: they lift nothing). */
const FLAG_FIELDS: Readonly<Record<string, readonly PageField[]>> = {
  noindex: ["index"],
  nofollow: ["follow"],
  none: ["index", "follow"],
  nosnippet: ["snippet"],
  noimageindex: ["imageIndex"],
  notranslate: ["translate"],
  noarchive: ["archive"],
  nocache: ["archive"],
};

interface State {
  off: Set<PageField>;
  maxSnippet: number | null;
  maxImagePreview: ImagePreview | null;
  maxVideoPreview: number | null;
  unavailableAfter: number | null;
  indexIfEmbedded: boolean;
  restrictions: Array<{ field: PageField } & RuleOrigin>;
  unknown: RuleOrigin[];
  invalid: Array<RuleOrigin & { problem: string }>;
}

function apply(st: State, rule: PageRule, origin: RuleOrigin): void {
  const restrict = (field: PageField) => {
    st.off.add(field);
    st.restrictions.push({ field, ...origin });
  };
  switch (rule.kind) {
    case "unknown":
      st.unknown.push(origin);
      return;
    case "invalid":
      st.invalid.push({ ...origin, problem: rule.problem });
      return;
    case "number":
      if (rule.name === "max-snippet") {
        st.maxSnippet = smaller(st.maxSnippet, rule.value);
        // max-snippet:0 is nosnippet (Google).
        if (rule.value !== -1) restrict(rule.value === 0 ? "snippet" : "maxSnippet");
      } else {
        st.maxVideoPreview = smaller(st.maxVideoPreview, rule.value);
        if (rule.value !== -1) restrict("maxVideoPreview");
      }
      return;
    case "image-preview":
      if (
        st.maxImagePreview === null ||
        IMAGE_PREVIEW_RANK[rule.value] < IMAGE_PREVIEW_RANK[st.maxImagePreview]
      ) {
        st.maxImagePreview = rule.value;
      }
      if (rule.value !== "large") restrict("maxImagePreview");
      return;
    case "date":
      st.unavailableAfter =
        st.unavailableAfter === null ? rule.value : Math.min(st.unavailableAfter, rule.value);
      restrict("unavailableAfter");
      return;
    case "flag":
      if (rule.name === "indexifembedded") st.indexIfEmbedded = true;
      for (const f of FLAG_FIELDS[rule.name] ?? []) restrict(f);
      return;
  }
}

/** Combine the statements that apply to `agent` (a product token) into one policy. */
export function combinePageRules(
  statements: Iterable<PageStatement>,
  agent: string,
  options: PolicyOptions = {},
): PagePolicy {
  const who = agent.toLowerCase();
  const st: State = {
    off: new Set(),
    maxSnippet: null,
    maxImagePreview: null,
    maxVideoPreview: null,
    unavailableAfter: null,
    indexIfEmbedded: false,
    restrictions: [],
    unknown: [],
    invalid: [],
  };
  for (const s of statements) {
    if (!appliesTo(s, who)) continue;
    const scope = s.scope === null ? "generic" : "specific";
    for (const rule of s.rules) apply(st, rule, { via: s.via, scope, text: rule.text });
  }
  const snippet = !st.off.has("snippet");
  const now = (options.now ?? Date.now)();
  const expired = st.unavailableAfter !== null && now >= st.unavailableAfter;
  const noindex = st.off.has("index");
  return {
    agent,
    index: !noindex && !expired,
    follow: !st.off.has("follow"),
    snippet,
    // nosnippet beats any max-snippet (Google: the more restrictive rule applies).
    maxSnippet: snippet ? st.maxSnippet : 0,
    imageIndex: !st.off.has("imageIndex"),
    maxImagePreview: st.maxImagePreview,
    maxVideoPreview: st.maxVideoPreview,
    translate: !st.off.has("translate"),
    unavailableAfter: st.unavailableAfter,
    expired,
    // Google: indexifembedded only has an effect together with noindex.
    indexIfEmbedded: st.indexIfEmbedded && noindex,
    noarchive: st.off.has("archive"),
    restrictions: st.restrictions,
    unknown: st.unknown,
    invalid: st.invalid,
  };
}
