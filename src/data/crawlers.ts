/**
 * The crawler catalogue behind `robots agents` ("which AI crawlers does my
 * robots.txt block?") and `robots agents --block`. The entries are generated
 * into crawler-catalogue.ts by `npm run import:crawlers` from two sources:
 * the agent list of ai.robots.txt (MIT) for AI crawlers, and the hand-kept
 * entries and our own categories and notes in scripts/crawler-curation.ts.
 * To add or change a crawler, edit the curation file and re-run the import
 * (docs/crawlers.md). Plain data, so a web page can use it.
 */
import { CATALOGUE } from "./crawler-catalogue.js";
import type { CrawlerInfo } from "./crawler-info.js";

export {
  CRAWLER_CATEGORIES,
  type CrawlerCategory,
  type CrawlerInfo,
  type HonoursRobotsTxt,
} from "./crawler-info.js";

/** Every crawler, by category (CRAWLER_CATEGORIES order), then by name. */
export const CRAWLERS: readonly CrawlerInfo[] = CATALOGUE;
