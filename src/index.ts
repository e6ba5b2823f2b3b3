/**
 * robots-exclusion: the Robots Exclusion Protocol for TypeScript and Node.js.
 * This entry is the core (parse, match, lint, explain, diff, the crawler
 * report): no dependencies and no `node:` imports, so it runs in browsers,
 * workers and edge runtimes too. The access method (fetching and caching)
 * is `robots-exclusion/node`.
 */

// Which well-known crawlers a file blocks.
export {
  CRAWLER_CATEGORIES,
  CRAWLERS,
  type CrawlerCategory,
  type CrawlerInfo,
  type HonoursRobotsTxt,
} from "./data/crawlers.js";
// Comparing two versions of a file ("diff before deploy").
export {
  agentsToCompare,
  type DiffAgent,
  type DiffSide,
  type VerdictChange,
  VerdictComparer,
} from "./diff/diff-robots.js";
export { probePaths } from "./diff/probe-paths.js";
// Errors: programmer mistakes throw a RobotsError with a stable code.
export { RobotsError, RobotsErrorCode } from "./errors.js";
// Explaining a verdict (docs/protocol.md#deciding-line) against the file as a crawler reads it.
export {
  type DocumentOptions,
  parseDocument,
  type RobotsDocument,
} from "./explain/document.js";
export {
  type AppliedGroup,
  type ContextLine,
  createExplainer,
  type Explainer,
  type ExplainNote,
  explainUrl,
  type FileNote,
  type GroupExplanation,
  type LosingRule,
  type LossReason,
  type NoteId,
  type UrlExplanation,
} from "./explain/explain-url.js";
// The linter.
export * from "./lint/index.js";

// Matching (docs/protocol.md#choosing-rules, #matching, #deciding-line): compile once per (file, agent), check many URLs.
export {
  isValidProductToken,
  productTokenFromUserAgent,
  validateProductToken,
} from "./match/agent-token.js";
export {
  compileMatcher,
  type MatchedRule,
  type MatchOptions,
  type RobotsMatcher,
  type Verdict,
} from "./match/compile.js";
export {
  type CleanParam,
  cleanParams,
  crawlDelay,
  directivesFor,
  host,
  type RequestRate,
  requestRate,
} from "./match/directives.js";
export {
  MatchCache,
  type MatchCacheOptions,
  type MatchCacheStats,
} from "./match/match-cache.js";
export { matchesPattern } from "./match/pattern.js";
export { type GroupSelection, type GroupSource, selectGroups } from "./match/select-groups.js";
export { pathOf } from "./match/url-path.js";
// Parsing (docs/protocol.md#parsing, #groups, #other-directives).
export { type ParseHooks, parseRobotsTxt, type RobotsTxt } from "./parse/parse-robots-txt.js";
export {
  type LineEvent,
  type LineEventKind,
  type LineVisitor,
  scanLines,
  UNUSED_KEYS,
} from "./parse/scan-lines.js";
export type {
  AgentLine,
  Directive,
  Group,
  LineKind,
  LineRecord,
  ParseOptions,
  Rule,
  RuleKind,
  Sitemap,
} from "./parse/types.js";
// The protocol's numbers and rules, each defined once (docs/protocol.md#long-lines, #access-method, #profiles).
export { MAX_LINE_BYTES } from "./protocol/line-length.js";
export { isProfile, PROFILES, type Profile } from "./protocol/profile.js";
export { crawlerView, ROBOTS_TXT_SIZE_LIMIT } from "./protocol/size-limit.js";
export {
  type BlockCheck,
  type BlockedResult,
  type BlockLine,
  type BlockPlan,
  blockLineValue,
  checkBlock,
  planBlock,
} from "./report/block-snippet.js";
export {
  type CrawlerReport,
  type CrawlerReportEntry,
  type CrawlerStatus,
  crawlerReport,
  type OtherAgent,
  type ReportSource,
} from "./report/crawler-report.js";
export { type TokenFinding, tokenFindings } from "./report/crawler-tokens.js";

// AI usage preferences: Content-Usage (IETF AIPREF drafts) and Content-Signal,
// from robots.txt and response headers (docs/usage-preferences.md).
export * from "./usage/index.js";

import { compileMatcher } from "./match/compile.js";
import { parseRobotsTxt } from "./parse/parse-robots-txt.js";
import type { ParseOptions } from "./parse/types.js";

/**
 * One-shot check, like the reference's API: parse `body`, then decide `url`
 * for `agent`. Parse once and use compileMatcher() when checking many URLs.
 */
export function isAllowed(
  body: Uint8Array | string,
  agent: string,
  url: string,
  options: ParseOptions = {},
): boolean {
  return compileMatcher(parseRobotsTxt(body, options), agent).isAllowed(url);
}
