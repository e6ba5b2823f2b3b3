/**
 * What the crawler catalogue records about a crawler, and our categories
 * (docs/crawlers.md). Types and constants only, so the generated catalogue
 * and the import script can use them without loading the catalogue.
 */

/**
 * Our categories, in the order reports show them. A crawler's category says
 * what its operator uses the fetched pages for, as far as it is documented.
 */
export const CRAWLER_CATEGORIES = {
  search: "Search engines",
  "ai-training": "AI training: collects pages to train models or to sell as AI data",
  "ai-search": "AI search: indexes pages ahead of time to answer questions with links",
  "ai-user-triggered":
    "AI fetches for a user or an agent at the moment they ask: robots.txt may not apply",
  seo: "SEO and marketing tools",
  archive: "Archives",
  other: "Other: link previews, ad checks, tools anyone can run, purpose undocumented",
} as const;

/** A category id of CRAWLER_CATEGORIES. */
export type CrawlerCategory = keyof typeof CRAWLER_CATEGORIES;

/**
 * Whether the crawler is reported to honour robots.txt: `yes` or `no` where
 * its operator or ai.robots.txt says so, `unclear` otherwise (including "at
 * the discretion of its users").
 */
export type HonoursRobotsTxt = "yes" | "no" | "unclear";

/** One crawler of the catalogue (docs/crawlers.md). */
export interface CrawlerInfo {
  /** The crawler's name as its operator or ai.robots.txt publishes it (`MistralAI-User/1.0`). */
  readonly name: string;
  /**
   * The product token a `User-agent:` line naming it is read as (docs/protocol.md#groups):
   * the longest prefix of `name` made of `[A-Za-z_-]` (`MistralAI-User`,
   * `MJ12bot` → `MJ`); empty when the name starts with another character.
   */
  readonly token: string;
  /** The company or project that runs it. */
  readonly operator: string;
  /** What its operator uses the fetched pages for. */
  readonly category: CrawlerCategory;
  /** Whether it is reported to honour robots.txt. */
  readonly honoursRobotsTxt: HonoursRobotsTxt;
  /** Where the entry comes from: ai.robots.txt, our hand-kept list, or both. */
  readonly source: "ai.robots.txt" | "hand-kept" | "both";
  /** Other crawlers in the catalogue read as the same token (ASCII case-insensitively). */
  readonly sameTokenAs?: readonly string[];
  /**
   * Other spellings of this crawler that ai.robots.txt lists separately
   * (`meta-externalagent`, `MistralAI-User/1.0`): one row here, under its
   * operator's spelling; each reads as the same token.
   */
  readonly alsoListedAs?: readonly string[];
  /** The page where the operator or ai.robots.txt's source says whether robots.txt is honoured. */
  readonly honoursSource?: string;
  /** The operator's own page about the crawler. */
  readonly docs?: string;
  /** Our own one-sentence note for site owners. */
  readonly note?: string;
  /** The category was guessed by the import from ai.robots.txt's wording, not reviewed yet. */
  readonly unreviewed?: true;
  /** When not named, the crawler follows this crawler's group instead of `*` (operator-documented). */
  readonly fallback?: string;
  /** The crawler ignores `*` groups: only a group naming it applies (operator-documented). */
  readonly ignoresGlobal?: boolean;
}
