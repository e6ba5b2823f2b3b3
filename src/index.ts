/**
 * robots-exclusion: the Robots Exclusion Protocol for TypeScript and Node.js.
 * The core (parse, match) has no dependencies and no `node:` imports.
 */

export { RobotsError, RobotsErrorCode } from "./errors.js";
export * from "./lint/index.js";
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
  type ContentSignal,
  cleanParams,
  contentSignals,
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
export { type ParseHooks, parseRobotsTxt, RobotsTxt } from "./parse/parse-robots-txt.js";
export { isProfile, PROFILES, type Profile } from "./parse/profile.js";
export {
  type LineEvent,
  type LineEventKind,
  type LineVisitor,
  MAX_LINE_BYTES,
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
