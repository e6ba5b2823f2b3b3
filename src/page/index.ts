/**
 * Page-level rules (X-Robots-Tag, Robots-Tag, robots meta tags): parsing and
 * combining. Part of the core: no dependencies, no `node:` imports. Reading
 * HTML and fetching pages live in src/page-html (the `robots-exclusion/page`
 * entry).
 */
export {
  appliesTo,
  type PageField,
  type PagePolicy,
  type PolicyOptions,
  pagePolicy,
  type RuleOrigin,
} from "./combine.js";
export { parseHttpDate } from "./http-date.js";
export {
  IMAGE_PREVIEW_RANK,
  type ImagePreview,
  PAGE_RULE_NAMES,
  type PageRule,
  type PageRuleName,
  readRule,
} from "./rules.js";
export {
  ignoredMetaProblems,
  type MetaOutsideHead,
  PAGE_RULE_HEADERS,
  type PageRuleSource,
  type PageSourceProblem,
  type PageStatement,
  type ParsedPageSource,
  parseRobotsMeta,
  parseXRobotsTag,
  readPageRuleHeaders,
  readPageRuleMetas,
} from "./statements.js";
export { parseRobotsTagField, type RobotsTagField } from "./structured-field.js";
