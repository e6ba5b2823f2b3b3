/**
 * robots-exclusion/playwright: a Playwright BrowserContext or Page obeys
 * robots.txt as a RobotsClient (robots-exclusion/node) reads it, request by
 * request, redirects hop by hop, with Crawl-delay and Retry-After between
 * navigations (docs/integrations.md). Playwright is an optional peer
 * dependency: this entry never imports it, it works on the context or page
 * it is given.
 */
export { RobotsError, RobotsErrorCode } from "../errors.js";
export {
  type BlockedRequest,
  type GuardedRequest,
  type GuardedResponse,
  type GuardedRoute,
  type PlaywrightGuard,
  type PlaywrightGuardOptions,
  type PlaywrightTarget,
  respectRobots,
} from "../playwright/respect-robots.js";
// The client it takes, and every type its signatures reach.
export type * from "./lists/client-types.js";
