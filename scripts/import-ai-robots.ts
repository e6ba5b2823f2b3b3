/**
 * Regenerates src/data/crawler-catalogue.ts from ai.robots.txt's robots.json
 * and the hand-kept entries and curation in scripts/crawler-curation.ts:
 *
 *   npm run import:crawlers -- <robots.json> [--commit <sha>] [--date <yyyy-mm-dd>]
 *                              [--license <file>] [--out <file>] [--check]
 *
 * The output is a pure function of its inputs (no clock, sorted entries), so
 * re-running an import on the same robots.json reproduces the committed file
 * byte for byte (test/crawler-catalogue.test.ts checks it). `--commit` and
 * `--date` name the ai.robots.txt commit the file comes from; the licence is
 * read from LICENSE next to robots.json unless `--license` says otherwise.
 * Names ai.robots.txt adds later get a category guessed from its wording and
 * `unreviewed: true`; the script lists them, and names the curation no longer
 * matches, so a maintainer can review them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  CRAWLER_CATEGORIES,
  type CrawlerCategory,
  type CrawlerInfo,
  type HonoursRobotsTxt,
} from "../src/data/crawler-info.js";
import { asciiLower, leadingProductToken } from "../src/protocol/product-token.js";
import {
  AI_CURATION,
  type Curation,
  HAND_KEPT,
  type HandKeptCrawler,
  SAME_CRAWLER,
} from "./crawler-curation.js";

/** One entry of robots.json as published: free text in every field. */
export interface AiRobotsEntry {
  readonly operator?: unknown;
  readonly respect?: unknown;
  readonly function?: unknown;
}

export interface ImportInput {
  /** The text of robots.json. */
  readonly robotsJson: string;
  /** The text of ai.robots.txt's LICENSE. */
  readonly license: string;
  /** The ai.robots.txt commit robots.json comes from, when known. */
  readonly commit?: string;
  /** That commit's date (yyyy-mm-dd), when known. */
  readonly date?: string;
  readonly handKept?: readonly HandKeptCrawler[];
  readonly curation?: Readonly<Record<string, Curation>>;
  /** Spellings of one crawler: alias → canonical name (SAME_CRAWLER). */
  readonly sameCrawler?: Readonly<Record<string, string>>;
}

export interface ImportResult {
  /** The generated module. */
  readonly text: string;
  readonly entries: readonly CrawlerInfo[];
  /** Names whose category was guessed: add them to the curation. */
  readonly unreviewed: readonly string[];
  /** Curated names robots.json no longer lists. */
  readonly staleCuration: readonly string[];
  /** Names whose operator could not be read as a name: add one to the curation. */
  readonly operatorUnread: readonly string[];
}

const CATEGORY_ORDER = Object.keys(CRAWLER_CATEGORIES) as CrawlerCategory[];

/** `[text](url)` → its text and url; anything else → itself. */
function unlink(value: string): { text: string; url?: string } {
  const m = /^\[([^\]]*)\]\((https?:\/\/[^)\s]*)\)/.exec(value.trim());
  return m === null ? { text: value.trim() } : { text: m[1]!.trim(), url: m[2]! };
}

/** ai.robots.txt's `respect` field → yes, no or unclear, and the page it cites. */
export function normaliseRespect(value: unknown): { honours: HonoursRobotsTxt; source?: string } {
  if (typeof value !== "string") return { honours: "unclear" };
  const { text, url } = unlink(value);
  const first = /^[A-Za-z]+/.exec(text)?.[0]?.toLowerCase();
  const honours = first === "yes" ? "yes" : first === "no" ? "no" : "unclear";
  return url?.startsWith("https://") && honours !== "unclear"
    ? { honours, source: url }
    : { honours };
}

/**
 * ai.robots.txt's `operator` field → a name, or undefined when it holds no
 * usable name (unknown, or a sentence about the operator).
 */
export function readOperator(value: unknown): string | "unknown" | undefined {
  if (typeof value !== "string") return "unknown";
  const { text, url } = unlink(value);
  if (/^(unclear|unknown)\b/i.test(text) || text === "") return "unknown";
  if (url !== undefined) return text.length <= 40 ? text : undefined;
  if (/^https?:\/\//.test(text)) {
    try {
      return new URL(text).hostname.replace(/^www\./, "");
    } catch {
      return undefined;
    }
  }
  // "Amazon, used for …", "Kagi that fetches …", "Cohere to download …", "Naget Inc (founded …)".
  const cut = text.split(/,| that | to | \(/)[0]!.trim();
  return cut.length > 0 && cut.length <= 32 && !/[[\]]/.test(cut) && !/^(the|a|an)\s/i.test(cut)
    ? cut
    : undefined;
}

/** A category from ai.robots.txt's `function` wording, for names not curated yet. */
export function guessCategory(fn: unknown): CrawlerCategory {
  const f = typeof fn === "string" ? fn.toLowerCase() : "";
  if (/search/.test(f)) return "ai-search";
  if (/assistant|agent|user|prompt/.test(f)) return "ai-user-triggered";
  if (/train|scrap|data|llm|model/.test(f)) return "ai-training";
  return "other";
}

function compareNames(a: string, b: string): number {
  const la = asciiLower(a);
  const lb = asciiLower(b);
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Builds the merged catalogue and the module text. */
export function importCatalogue(input: ImportInput): ImportResult {
  const handKept = input.handKept ?? HAND_KEPT;
  const curation = input.curation ?? AI_CURATION;
  const parsed: unknown = JSON.parse(input.robotsJson);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("robots.json is not an object of user-agent names");
  }
  const listed = parsed as Record<string, AiRobotsEntry>;
  // The shipped spellings go with the shipped curation.
  const sameCrawler = input.sameCrawler ?? (input.curation === undefined ? SAME_CRAWLER : {});
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, canonical] of Object.entries(sameCrawler)) {
    if (!Object.hasOwn(listed, alias) || !Object.hasOwn(listed, canonical)) continue;
    if (asciiLower(leadingProductToken(alias)) !== asciiLower(leadingProductToken(canonical))) {
      throw new Error(`${alias} and ${canonical} read as different tokens: not one crawler`);
    }
    aliasesOf.set(canonical, [...(aliasesOf.get(canonical) ?? []), alias].sort(compareNames));
  }
  const byName = new Map(handKept.map((h) => [h.name, h]));
  const unreviewed: string[] = [];
  const operatorUnread: string[] = [];
  type Draft = Omit<CrawlerInfo, "sameTokenAs">;
  const drafts: Draft[] = [];
  const entryOf = (name: string): AiRobotsEntry => {
    const raw = listed[name];
    return raw !== null && typeof raw === "object" ? (raw as AiRobotsEntry) : {};
  };
  for (const name of Object.keys(listed)) {
    const canonical = sameCrawler[name];
    if (canonical !== undefined && Object.hasOwn(listed, canonical)) continue;
    const entry = entryOf(name);
    const aliases = aliasesOf.get(name) ?? [];
    const c0 = curation[name];
    let respect = normaliseRespect(entry.respect);
    for (const alias of aliases) {
      const other = normaliseRespect(entryOf(alias).respect);
      if (other.honours === respect.honours) respect = { ...other, ...respect };
      else if (c0?.honours === undefined) {
        throw new Error(
          `${name} (${respect.honours}) and ${alias} (${other.honours}) disagree on robots.txt: settle it in the curation with a cited source`,
        );
      }
    }
    if (c0?.honours !== undefined)
      respect = { honours: c0.honours.value, source: c0.honours.source };
    const also = aliases.length === 0 ? {} : { alsoListedAs: aliases };
    const hand = byName.get(name);
    if (hand !== undefined) {
      byName.delete(name);
      drafts.push({
        ...draft(hand, "both", hand.honoursRobotsTxt ?? respect.honours, respect.source),
        ...also,
      });
      continue;
    }
    const c = c0;
    let operator = c?.operator ?? readOperator(entry.operator);
    if (operator === undefined) {
      operatorUnread.push(name);
      operator = "unknown";
    }
    drafts.push({
      name,
      token: leadingProductToken(name),
      operator,
      category: c?.category ?? guessCategory(entry.function),
      honoursRobotsTxt: respect.honours,
      source: "ai.robots.txt",
      ...also,
      ...(respect.source === undefined ? {} : { honoursSource: respect.source }),
      ...(c?.docs === undefined ? {} : { docs: c.docs }),
      ...(c?.note === undefined ? {} : { note: c.note }),
      ...(c === undefined ? { unreviewed: true as const } : {}),
    });
    if (c === undefined) unreviewed.push(name);
  }
  for (const hand of byName.values()) {
    drafts.push(draft(hand, "hand-kept", hand.honoursRobotsTxt ?? "unclear", undefined));
  }
  const staleCuration = [...Object.keys(curation), ...Object.keys(sameCrawler)].filter(
    (n) => !Object.hasOwn(listed, n),
  );

  // Names read as the same token: a group naming one applies to all (docs/protocol.md#choosing-rules).
  const byToken = new Map<string, string[]>();
  for (const d of drafts) {
    if (d.token === "") continue;
    const key = asciiLower(d.token);
    byToken.set(key, [...(byToken.get(key) ?? []), d.name]);
  }
  const entries: CrawlerInfo[] = drafts
    .map((d): CrawlerInfo => {
      const same = (byToken.get(asciiLower(d.token)) ?? [])
        .filter((n) => n !== d.name)
        .sort(compareNames);
      return same.length === 0 || d.token === "" ? d : withSame(d, same);
    })
    .sort(
      (a, b) =>
        CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) ||
        compareNames(a.name, b.name),
    );
  return {
    text: renderModule(entries, input),
    entries,
    unreviewed: unreviewed.sort(compareNames),
    staleCuration: staleCuration.sort(compareNames),
    operatorUnread: operatorUnread.sort(compareNames),
  };
}

function draft(
  h: HandKeptCrawler,
  source: "both" | "hand-kept",
  honours: HonoursRobotsTxt,
  honoursSource: string | undefined,
): Omit<CrawlerInfo, "sameTokenAs"> {
  return {
    name: h.name,
    token: leadingProductToken(h.name),
    operator: h.operator,
    category: h.category,
    honoursRobotsTxt: honours,
    source,
    ...(honoursSource === undefined ? {} : { honoursSource }),
    ...(h.docs === undefined ? {} : { docs: h.docs }),
    ...(h.note === undefined ? {} : { note: h.note }),
    ...(h.fallback === undefined ? {} : { fallback: h.fallback }),
    ...(h.ignoresGlobal === undefined ? {} : { ignoresGlobal: h.ignoresGlobal }),
  };
}

/** `d` with `sameTokenAs` placed after `source`, as the module lists fields. */
function withSame(d: Omit<CrawlerInfo, "sameTokenAs">, same: string[]): CrawlerInfo {
  const { name, token, operator, category, honoursRobotsTxt, source, ...rest } = d;
  return { name, token, operator, category, honoursRobotsTxt, source, sameTokenAs: same, ...rest };
}

/** One entry per line: `{ key: value, … }` with JSON string escapes. */
function renderEntry(e: CrawlerInfo): string {
  const value = (v: unknown): string =>
    Array.isArray(v) ? `[${v.map(value).join(", ")}]` : JSON.stringify(v);
  const parts = Object.entries(e).map(([k, v]) => `${k}: ${value(v)}`);
  return `  { ${parts.join(", ")} },`;
}

function renderModule(entries: readonly CrawlerInfo[], input: ImportInput): string {
  const from =
    input.commit === undefined
      ? "(commit not recorded)"
      : `commit ${input.commit}${input.date === undefined ? "" : ` of ${input.date}`}`;
  const licence = input.license
    .trim()
    .split(/\r?\n/)
    .map((l) => ` * ${l}`.trimEnd());
  const lines = [
    "/**",
    " * GENERATED by `npm run import:crawlers` (scripts/import-ai-robots.ts): do not",
    " * edit; change scripts/crawler-curation.ts and re-run the import (docs/crawlers.md).",
    " *",
    " * AI crawler names, operators and whether each is reported to honour",
    " * robots.txt come from the agent list (robots.json) of ai.robots.txt,",
    ` * https://github.com/ai-robots-txt/ai.robots.txt, ${from},`,
    " * used under its MIT licence, reproduced below. The search, SEO, archive and",
    " * other entries, the categories and the notes are our own.",
    ` * ${entries.length} crawlers; \`token\` is what a robots.txt User-agent line naming`,
    " * the crawler is read as (docs/protocol.md#groups), `sameTokenAs` the other crawlers read",
    " * as the same token.",
    " *",
    ...licence,
    " */",
    'import type { CrawlerInfo } from "./crawler-info.js";',
    "",
    "export const CATALOGUE: readonly CrawlerInfo[] = [",
    ...entries.map(renderEntry),
    "];",
    "",
  ];
  return lines.join("\n");
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CATALOGUE_PATH = path.join(REPO_ROOT, "src/data/crawler-catalogue.ts");

function main(argv: readonly string[]): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      commit: { type: "string" },
      date: { type: "string" },
      license: { type: "string" },
      out: { type: "string" },
      check: { type: "boolean" },
    },
  });
  if (positionals.length !== 1) {
    console.error("usage: npm run import:crawlers -- <robots.json> [--commit sha] [--date d]");
    return 2;
  }
  const json = positionals[0]!;
  const licensePath = values.license ?? path.join(path.dirname(json), "LICENSE");
  const result = importCatalogue({
    robotsJson: readFileSync(json, "utf8"),
    license: readFileSync(licensePath, "utf8"),
    ...(values.commit === undefined ? {} : { commit: values.commit }),
    ...(values.date === undefined ? {} : { date: values.date }),
  });
  const out = values.out ?? CATALOGUE_PATH;
  const say = (what: string, names: readonly string[]) => {
    if (names.length > 0) console.error(`${what} (${names.length}): ${names.join(", ")}`);
  };
  say("not curated yet, category guessed", result.unreviewed);
  say("operator not readable, add one to the curation", result.operatorUnread);
  say("curated but no longer listed", result.staleCuration);
  if (values.check === true) {
    const same = readFileSync(out, "utf8") === result.text;
    console.error(same ? `${out} is up to date` : `${out} differs from a fresh import`);
    return same ? 0 : 1;
  }
  writeFileSync(out, result.text);
  console.error(`wrote ${result.entries.length} crawlers to ${path.relative(process.cwd(), out)}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(`import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
