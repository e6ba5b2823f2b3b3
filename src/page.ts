/**
 * robots-exclusion/page: page-level rules. The parsing and combining (src/page)
 * run anywhere; this entry adds reading them from HTML (parse5's tokenizer)
 * and fetching a page after robots.txt allows it (node:http). A separate
 * entry so the main one keeps no dependencies.
 */
export * from "./page/index.js";
export {
  fetchPageRules,
  type PageFetch,
  type PageFetchOptions,
  type PageRulesResult,
} from "./page-io/fetch-page.js";
export {
  DEFAULT_HEAD_BYTES,
  type HeadEnd,
  type HeadMeta,
  type HeadRead,
  HeadReader,
  type IgnoredMeta,
  MAX_HEAD_METAS,
  readHeadMetas,
  readHeadMetasFrom,
} from "./page-io/read-head.js";
