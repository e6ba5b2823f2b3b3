/**
 * robots-exclusion/page-rules: page-level rules (X-Robots-Tag, Robots-Tag,
 * robots meta tags; docs/page-rules.md). Reading and combining them
 * (src/page-rules) run anywhere; this entry adds reading them from HTML
 * (parse5's tokenizer) and fetching a page after robots.txt allows it. A
 * separate entry so the main one keeps no dependencies.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */
export { RobotsError, RobotsErrorCode } from "./errors.js";
export { combinePageRules, type PagePolicy, type PolicyOptions } from "./page-rules/combine.js";
export { PAGE_RULE_NAMES, type PageRule, type PageRuleName } from "./page-rules/rules.js";
export {
  type PageRuleSource,
  type PageStatement,
  parseRobotsMeta,
  parseXRobotsTag,
  readPageRuleHeaders,
  readPageRuleMetas,
} from "./page-rules/statements.js";
export {
  fetchPageRules,
  type PageFetch,
  type PageFetchOptions,
  type PageRulesResult,
} from "./page-rules-io/fetch-page.js";
export { type HeadMeta, type HeadRead, readHeadMetas } from "./page-rules-io/read-head.js";
