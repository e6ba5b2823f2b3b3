/**
 * robots-exclusion: the Robots Exclusion Protocol for TypeScript and Node.js.
 * This entry is the core (parse, match, lint, explain, diff, the crawler
 * report, AI usage preferences): no dependencies and no `node:` imports, so
 * it runs in browsers, workers and edge runtimes too. The access method
 * (fetching and caching) is `robots-exclusion/node` or
 * `robots-exclusion/fetch`.
 *
 * An explicit list: what is not named here is internal (docs/api.md lists
 * every public name; etc/robots-exclusion.api.md is the checked report).
 */

export type { HonoursRobotsTxt } from "../data/crawler-info.js";
// Which well-known crawlers a file blocks (docs/crawlers.md).
export {
  CRAWLER_CATEGORIES,
  CRAWLERS,
  type CrawlerCategory,
  type CrawlerInfo,
} from "../data/crawlers.js";
// Comparing two versions of a file ("diff before deploy").
export {
  type AgentTally,
  type DiffAgent,
  type DiffSide,
  listAgentsToCompare,
  type VerdictChange,
  VerdictComparer,
  type VerdictComparerOptions,
} from "../diff/diff-robots.js";
export { probePaths } from "../diff/probe-paths.js";
// The one error type: programmer mistakes throw a RobotsError with a stable code (docs/errors.md).
export { RobotsError, RobotsErrorCode, type RobotsErrorOptions } from "../errors.js";
// Explaining a verdict (docs/protocol.md#deciding-line) against the file as a crawler reads it.
export { type DocumentOptions, parseDocument, type RobotsDocument } from "../explain/document.js";
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
} from "../explain/explain-url.js";
// The linter (docs/diagnostics.md).
export {
  type AppliedFix,
  applyLintFixes,
  type FixOptions,
  type FixResult,
} from "../lint/apply-fixes.js";
export {
  DIAGNOSTICS,
  type Diagnostic,
  type DiagnosticId,
  type LintEdit,
  type Severity,
} from "../lint/diagnostics.js";
export { DIRECTIVE_SUPPORT, type DirectiveSupport } from "../lint/directive-support.js";
export type { LineInfo } from "../lint/line-info.js";
export { type LintOptions, type LintResult, lintRobotsTxt } from "../lint/lint-robots-txt.js";
// Matching (docs/protocol.md#choosing-rules, #matching, #deciding-line): compile once per (file, agent), check many URLs.
export {
  isValidProductToken,
  readProductToken,
  validateProductToken,
} from "../match/agent-token.js";
export {
  compileMatcher,
  type MatchedRule,
  type MatchOptions,
  type RobotsMatcher,
  type Verdict,
} from "../match/compile.js";
export {
  type CleanParam,
  type RequestRate,
  readCleanParams,
  readCrawlDelay,
  readDirectives,
  readHost,
  readRequestRate,
} from "../match/directives.js";
export {
  MatchCache,
  type MatchCacheOptions,
  type MatchCacheStats,
} from "../match/match-cache.js";
export { isAllowed } from "../match/one-shot.js";
// The reading crawler operators document (AdsBot-Google ignores *; docs/protocol.md#choosing-rules).
export {
  checkAsOperatorDocuments,
  type OperatorException,
  operatorException,
  type ReadingVerdict,
} from "../match/operator-reading.js";
export { matchesPattern } from "../match/pattern.js";
export { type GroupSelection, type GroupSource, selectGroups } from "../match/select-groups.js";
export { readPath } from "../match/url-path.js";
// Parsing (docs/protocol.md#parsing, #groups, #other-directives).
export { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
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
} from "../parse/types.js";
// The protocol's numbers, each defined once (docs/protocol.md#size-limit, #long-lines, #profiles).
export { MAX_LINE_BYTES } from "../protocol/line-length.js";
export { PROFILES, type Profile } from "../protocol/profile.js";
export { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
export {
  type CrawlerReport,
  type CrawlerReportEntry,
  type CrawlerReportOptions,
  type CrawlerStatus,
  type OtherAgent,
  type OtherReading,
  type ReportSource,
  reportCrawlers,
} from "../report/crawler-report.js";
// AI usage preferences: Content-Usage (IETF AIPREF drafts) and Content-Signal,
// from robots.txt and response headers (docs/usage-preferences.md).
export { type AgentUsage, readUsageByAgent } from "../usage/agent-usage.js";
export { type ContentSignal, readContentSignals } from "../usage/content-signals.js";
export type {
  AgentUsageLines,
  ContentSignalLine,
  ContentUsageRule,
  ContentUsageValue,
} from "../usage/robots-rules.js";
export {
  type CategoryResult,
  compileUsage,
  type HeaderInput,
  type RobotsUsage,
  type UsageCheckOptions,
  type UsageMatcher,
  type UsageOrigin,
  type UsagePreferences,
  type UsageQuery,
  type UsageStatement,
  usagePreferences,
} from "../usage/usage-preferences.js";
export {
  AIPREF_VOCABULARIES,
  type AiprefVocabulary,
  type ContentSignalLabel,
  type IgnoredEntry,
  type Preference,
  type ReadStatement,
} from "../usage/vocabulary.js";
