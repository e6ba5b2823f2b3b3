import { parseRobotsTxt } from "../parse/parse-robots-txt.js";
import type { ParseOptions } from "../parse/types.js";
import { compileMatcher } from "./compile.js";

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
