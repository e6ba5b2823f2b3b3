/**
 * The AI usage vocabularies and how one statement of preference is read.
 *
 * `Content-Usage` (draft-ietf-aipref-attach-05) carries a statement in the
 * vocabulary of draft-ietf-aipref-vocab: a Structured Fields Dictionary whose
 * keys are category labels and whose values are the Tokens `y` (allow) or
 * `n` (disallow) (vocab-08 §6). Anything else states no preference: a
 * missing key, a value that is not a Token, a Token other than y or n, and a
 * Dictionary that does not parse (vocab-08 §6.5); unknown labels and all
 * parameters are ignored (vocab-08 §6.4). They are kept here and reported.
 *
 * The vocabulary changed between revisions, so the table is per revision:
 * -08 is flat (train-ai, ai-use, search); -04 nested its categories, and a
 * category without a preference of its own took its parent's (vocab-04 §5).
 *
 * `Content-Signal` (draft-romm-aipref-contentsignals-00, with the
 * `key=yes|no` syntax of Cloudflare's Content Signals Policy, which the draft
 * does not define) has its own three labels.
 */
import { parseSfDictionary, type SfMember } from "../protocol/structured-fields.js";

export interface UsageCategory {
  /** The label written in statements (`train-ai`). */
  readonly label: string;
  /** The draft's name for it. */
  readonly name: string;
  /** The broader category whose preference applies when this one has none, or null. */
  readonly parent: string | null;
}

/** The vocabulary revisions this library reads; `vocab-08` is the default. */
export const AIPREF_VOCABULARIES = {
  "vocab-08": {
    draft: "draft-ietf-aipref-vocab-08",
    categories: [
      { label: "train-ai", name: "AI Training", parent: null },
      { label: "ai-use", name: "AI Use", parent: null },
      { label: "search", name: "Search", parent: null },
    ],
  },
  "vocab-04": {
    draft: "draft-ietf-aipref-vocab-04",
    categories: [
      { label: "bots", name: "Automated Processing", parent: null },
      { label: "train-ai", name: "Foundation Model Production", parent: "bots" },
      { label: "ai-output", name: "AI Output", parent: "bots" },
      { label: "search", name: "Search", parent: "ai-output" },
    ],
  },
} as const satisfies Record<
  string,
  { readonly draft: string; readonly categories: readonly UsageCategory[] }
>;

/** A vocabulary id of AIPREF_VOCABULARIES. */
export type AiprefVocabulary = keyof typeof AIPREF_VOCABULARIES;

export const DEFAULT_VOCABULARY: AiprefVocabulary = "vocab-08";

/**
 * Labels of earlier revisions that the current one no longer defines, with
 * the revisions that used them: for reports (they are ignored, vocab-08 §6.4).
 */
export const RETIRED_LABELS: Readonly<Record<string, string>> = {
  tdm: "draft-ietf-aipref-vocab-01",
  ai: "draft-ietf-aipref-vocab-01",
  genai: "draft-ietf-aipref-vocab-01",
  inference: "draft-ietf-aipref-vocab-01",
  all: "draft-ietf-aipref-vocab-02",
  "train-genai": "draft-ietf-aipref-vocab-02 and -03",
  bots: "draft-ietf-aipref-vocab-03 and -04",
  "ai-output": "draft-ietf-aipref-vocab-04",
};

/** A Content-Signal label (draft-romm-aipref-contentsignals-00 §4). */
export type ContentSignalLabel = "search" | "ai-input" | "ai-train";
/** The Content-Signal labels (draft-romm-aipref-contentsignals-00 §4). */
export const CONTENT_SIGNAL_LABELS: readonly ContentSignalLabel[] = [
  "search",
  "ai-input",
  "ai-train",
];

/** allowed, disallowed, or no preference (vocab-08 §3). */
export type Preference = "allowed" | "disallowed" | "unknown";

/** A key of a statement that states nothing: unknown to the vocabulary, or a value other than y/n (yes/no). */
export interface IgnoredEntry {
  /** The key as written. */
  readonly key: string;
  /** The value as written (`true` for a bare key). */
  readonly value: string;
}

/** One statement of preference, read. */
export interface ReadStatement {
  /**
   * Read without a problem. A Content-Usage statement that does not parse
   * states nothing; a Content-Signal list keeps its well-formed entries.
   */
  readonly ok: boolean;
  /** Why it did not parse, with the 1-based position. */
  readonly problem?: string;
  /** Explicit preferences of known labels, after the last-value rule. */
  readonly values: Readonly<Record<string, "allowed" | "disallowed">>;
  /** Keys the vocabulary does not define (kept, ignored). */
  readonly unknownKeys: readonly IgnoredEntry[];
  /** Known keys whose value is not y/n (yes/no): no preference. */
  readonly invalidValues: readonly IgnoredEntry[];
  /** Keys given more than once. */
  readonly repeated: readonly string[];
}

function memberText(m: SfMember): string {
  if (m.kind === "inner-list") return "(…)";
  const b = m.bare;
  switch (b.type) {
    case "string":
      return JSON.stringify(b.value);
    case "display":
      return `%${JSON.stringify(b.value)}`;
    case "bytes":
      return `:${b.value}:`;
    case "boolean":
      return b.value ? "true" : "?0";
    case "date":
      return `@${b.value}`;
    default:
      return String(b.value);
  }
}

function labelsOf(vocabulary: AiprefVocabulary): ReadonlySet<string> {
  return new Set(AIPREF_VOCABULARIES[vocabulary].categories.map((c) => c.label));
}

/** Read a Content-Usage statement (vocab-08 §6.5): strict Structured Fields, y/n Tokens. */
export function readUsageStatement(
  text: string,
  vocabulary: AiprefVocabulary = DEFAULT_VOCABULARY,
): ReadStatement {
  const parsed = parseSfDictionary(text);
  if (!parsed.ok) {
    return {
      ok: false,
      problem: `not a Structured Fields dictionary: ${parsed.problem} (at ${parsed.at})`,
      values: {},
      unknownKeys: [],
      invalidValues: [],
      repeated: [],
    };
  }
  const known = labelsOf(vocabulary);
  const values: Record<string, "allowed" | "disallowed"> = {};
  const unknownKeys: IgnoredEntry[] = [];
  const invalidValues: IgnoredEntry[] = [];
  for (const [key, member] of parsed.members) {
    const token = member.kind === "item" && member.bare.type === "token" ? member.bare.value : null;
    if (!known.has(key)) unknownKeys.push({ key, value: memberText(member) });
    else if (token === "y") values[key] = "allowed";
    else if (token === "n") values[key] = "disallowed";
    else invalidValues.push({ key, value: memberText(member) });
  }
  return { ok: true, values, unknownKeys, invalidValues, repeated: parsed.repeated };
}

/**
 * One category of one statement (vocab-04 §5; vocab-08 §5): its own
 * preference, else its parent's, else unknown.
 */
export function categoryPreference(
  statement: ReadStatement,
  label: string,
  vocabulary: AiprefVocabulary = DEFAULT_VOCABULARY,
): Preference {
  const categories: readonly UsageCategory[] = AIPREF_VOCABULARIES[vocabulary].categories;
  let at: string | null = label;
  // The table is a tree of depth ≤ 3; the bound guards against a cycle anyway.
  for (let depth = 0; at !== null && depth <= categories.length; depth++) {
    const own = statement.values[at];
    if (own !== undefined) return own;
    const here: string = at;
    at = categories.find((c) => c.label === here)?.parent ?? null;
  }
  return "unknown";
}

/**
 * Read a Content-Signal value: `search=yes, ai-train=no`. The draft defines
 * the labels only; the syntax is the policy's comma-separated `key=value`
 * list, read leniently (spaces anywhere, keys and values in any case) since
 * no stricter grammar exists. A key given twice keeps its most restrictive
 * value, so a repeat can never loosen what a line says.
 */
export function readContentSignal(text: string): ReadStatement {
  const values: Record<string, "allowed" | "disallowed"> = {};
  const unknownKeys: IgnoredEntry[] = [];
  const invalidValues: IgnoredEntry[] = [];
  const seen = new Set<string>();
  const repeated: string[] = [];
  let problem: string | undefined;
  let at = 0;
  for (const part of text.split(",")) {
    const item = part.trim();
    const start = at + (part.length - part.trimStart().length) + 1;
    at += part.length + 1;
    if (item === "") {
      if (text.trim() !== "") problem ??= `an empty entry at ${start}`;
      continue;
    }
    const eq = item.indexOf("=");
    if (eq < 0) {
      problem ??= `${JSON.stringify(item)} at ${start} is not key=value`;
      continue;
    }
    const key = item.slice(0, eq).trim().toLowerCase();
    const value = item.slice(eq + 1).trim();
    if (seen.has(key) && !repeated.includes(key)) repeated.push(key);
    seen.add(key);
    if (!(CONTENT_SIGNAL_LABELS as readonly string[]).includes(key)) {
      unknownKeys.push({ key, value });
      continue;
    }
    const v = value.toLowerCase();
    const pref = v === "yes" ? "allowed" : v === "no" ? "disallowed" : null;
    if (pref === null) invalidValues.push({ key, value });
    else if (values[key] !== "disallowed") values[key] = pref;
  }
  return {
    ok: problem === undefined,
    ...(problem === undefined ? {} : { problem }),
    values,
    unknownKeys,
    invalidValues,
    repeated,
  };
}
