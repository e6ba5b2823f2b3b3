/**
 * robots-exclusion/page-rules: page-level rules (X-Robots-Tag, Robots-Tag,
 * robots meta tags; docs/page-rules.md). Reading and combining them
 * (src/page-rules) run anywhere; this entry adds reading them from HTML
 * (parse5's tokenizer) and fetching a page after robots.txt allows it. A
 * separate entry so the main one keeps no dependencies.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */
export { RobotsError, RobotsErrorCode } from "../errors.js";
export {
  combinePageRules,
  type PageField,
  type PagePolicy,
  type PolicyOptions,
  type RuleOrigin,
} from "../page-rules/combine.js";
export {
  type ImagePreview,
  PAGE_RULE_NAMES,
  type PageRule,
  type PageRuleName,
} from "../page-rules/rules.js";
export {
  ignoredMetaProblems,
  type MetaOutsideHead,
  type PageRuleSource,
  type PageSourceProblem,
  type PageStatement,
  type ParsedPageSource,
  parseRobotsMeta,
  parseXRobotsTag,
  readPageRuleHeaders,
  readPageRuleMetas,
} from "../page-rules/statements.js";
export {
  fetchPageRules,
  type PageFetch,
  type PageFetchOptions,
  type PageRulesResult,
} from "../page-rules-io/fetch-page.js";
export {
  type HeadEnd,
  type HeadMeta,
  type HeadRead,
  type IgnoredMeta,
  readHeadMetas,
} from "../page-rules-io/read-head.js";
// The client fetchPageRules takes, and every type its signatures reach.
export type * from "./lists/client-types.js";
