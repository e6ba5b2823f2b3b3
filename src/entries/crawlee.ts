/**
 * robots-exclusion/crawlee: a crawlee 3.x crawler obeys robots.txt as a
 * RobotsClient (robots-exclusion/node) reads it, and keeps its Crawl-delay
 * and Retry-After (docs/integrations.md). crawlee is an optional peer
 * dependency: this entry never imports it, it works on the crawler it is
 * given.
 */
export {
  type CrawleeCrawler,
  type RespectRobotsOptions,
  respectRobots,
} from "../crawlee/respect-robots.js";
export { RobotsError, RobotsErrorCode } from "../errors.js";
// The client it takes, and every type its signatures reach.
export type * from "./lists/client-types.js";
