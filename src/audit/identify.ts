/**
 * Who a request says it is, from its whole User-Agent header: a crawler of
 * the catalogue (src/data/crawlers.ts), another bot by its product token, or
 * a browser. `identifyAgent` is the one place the audit reads a User-Agent.
 */
import { CRAWLERS, type CrawlerInfo } from "../data/crawlers.js";
import { readProductToken } from "../match/agent-token.js";

/** What a User-Agent header claims. */
export interface AgentClaim {
  /** The name the report uses: the catalogue's spelling, or the bot's product token. */
  readonly name: string;
  /** The token whose robots.txt group applies ("*" when it reads as no token). */
  readonly token: string;
  /** A crawler of the catalogue, another bot, or a browser (or no User-Agent). */
  readonly kind: "catalogue" | "bot" | "browser";
  /** The catalogue's operator, for verification. */
  readonly operator?: string;
}

function catalogueIndex(): Map<string, CrawlerInfo> {
  const byWord = new Map<string, CrawlerInfo>();
  for (const c of CRAWLERS) {
    for (const spelling of [c.name, ...(c.alsoListedAs ?? [])]) {
      // A name as a UA writes it: `MistralAI-User/1.0` appears as `MistralAI-User`.
      const word = spelling.split("/")[0]!;
      if (word.includes(" ")) continue;
      const key = word.toLowerCase();
      if (!byWord.has(key)) byWord.set(key, c);
    }
  }
  return byWord;
}

const INDEX = catalogueIndex();

function isWordChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x5f
  );
}

/** Words that mark a User-Agent as a bot's when no catalogue crawler is named. */
const BOT_MARKS = ["bot", "crawl", "spider", "slurp", "scrape", "fetch", "archiver"];

/** The first catalogue crawler named as a word of `ua`, outside URLs. */
function catalogueCrawler(ua: string): CrawlerInfo | undefined {
  let start = -1;
  for (let i = 0; i <= ua.length; i++) {
    const c = i < ua.length ? ua.charCodeAt(i) : 0x20;
    if (isWordChar(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      // `http://host/path`: the words of a URL name pages, not crawlers.
      if (c === 0x3a && ua.charCodeAt(i + 1) === 0x2f) {
        while (i < ua.length && ua.charCodeAt(i) !== 0x20 && ua.charCodeAt(i) !== 0x3b) i++;
      } else {
        const hit = INDEX.get(ua.slice(start, i).toLowerCase());
        if (hit !== undefined) return hit;
      }
      start = -1;
    }
  }
  return undefined;
}

/** What `ua` (a whole User-Agent header) claims to be. */
export function identifyAgent(ua: string): AgentClaim {
  const c = catalogueCrawler(ua);
  if (c !== undefined) {
    return {
      name: c.name,
      token: c.token === "" ? "*" : c.token,
      kind: "catalogue",
      operator: c.operator,
    };
  }
  let token: string;
  try {
    token = readProductToken(ua);
  } catch {
    return { name: ua === "" ? "(no User-Agent)" : "(unnamed)", token: "*", kind: "browser" };
  }
  const lower = ua.toLowerCase();
  const bot = BOT_MARKS.some((m) => lower.includes(m));
  return { name: token, token, kind: bot ? "bot" : "browser" };
}
