/**
 * Well-known crawlers for `robots agents` ("which AI crawlers does my
 * robots.txt block?"). One entry per robots.txt product token. To add a
 * crawler, append an entry: `token` is what site owners write after
 * `User-agent:` (letters, "-" and "_" only, SPEC.md §3), `operator` who runs
 * it, `purpose` one of CRAWLER_PURPOSES, `docs` the operator's own page when
 * there is one, `note` anything a site owner should know in one sentence, and
 * `fallback` / `ignoresGlobal` only where the operator documents a group
 * choice that differs from SPEC.md §4.
 * Plain data with no imports, so a web page can use it too.
 */

export const CRAWLER_PURPOSES = {
  "ai-training": "AI training: collects content to train models",
  "ai-search": "AI search: indexes pages for AI answers with links",
  "ai-assistant": "AI assistants: fetch a page when a user asks",
  search: "Search engines",
  ads: "Advertising",
  seo: "SEO and marketing tools",
  archive: "Archives",
  social: "Social link previews",
} as const;

export type CrawlerPurpose = keyof typeof CRAWLER_PURPOSES;

export interface CrawlerInfo {
  readonly token: string;
  readonly operator: string;
  readonly purpose: CrawlerPurpose;
  readonly docs?: string;
  readonly note?: string;
  /** When not named, the crawler follows this crawler's group instead of `*` (operator-documented). */
  readonly fallback?: string;
  /** The crawler ignores `*` groups: only a group naming it applies (operator-documented). */
  readonly ignoresGlobal?: boolean;
}

export const CRAWLERS: readonly CrawlerInfo[] = [
  // Search engines
  {
    token: "Googlebot",
    operator: "Google",
    purpose: "search",
    docs: "https://developers.google.com/search/docs/crawling-indexing/googlebot",
    note: "ignores Crawl-delay",
  },
  {
    token: "bingbot",
    operator: "Microsoft",
    purpose: "search",
    docs: "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
    note: "also feeds Copilot answers; honours Crawl-delay",
  },
  {
    token: "Applebot",
    operator: "Apple",
    purpose: "search",
    docs: "https://support.apple.com/en-us/119829",
    note: "Siri and Spotlight; follows the Googlebot group when not named",
    fallback: "Googlebot",
  },
  {
    token: "DuckDuckBot",
    operator: "DuckDuckGo",
    purpose: "search",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot",
  },
  {
    token: "YandexBot",
    operator: "Yandex",
    purpose: "search",
    docs: "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html",
  },
  {
    token: "Baiduspider",
    operator: "Baidu",
    purpose: "search",
    docs: "https://www.baidu.com/search/robots_english.html",
  },
  { token: "Slurp", operator: "Yahoo", purpose: "search" },
  { token: "Yeti", operator: "Naver", purpose: "search" },
  { token: "SeznamBot", operator: "Seznam", purpose: "search" },
  { token: "PetalBot", operator: "Huawei", purpose: "search" },

  // Advertising
  {
    token: "AdsBot-Google",
    operator: "Google",
    purpose: "ads",
    docs: "https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers",
    note: "ignores the * group: only a group naming it applies",
    ignoresGlobal: true,
  },
  {
    token: "Mediapartners-Google",
    operator: "Google",
    purpose: "ads",
    docs: "https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers",
    note: "AdSense; ignores the * group",
    ignoresGlobal: true,
  },

  // AI training
  {
    token: "GPTBot",
    operator: "OpenAI",
    purpose: "ai-training",
    docs: "https://platform.openai.com/docs/bots",
  },
  {
    token: "ClaudeBot",
    operator: "Anthropic",
    purpose: "ai-training",
    docs: "https://support.anthropic.com/en/articles/8896518",
  },
  {
    token: "anthropic-ai",
    operator: "Anthropic",
    purpose: "ai-training",
    note: "older token; ClaudeBot is the current one",
  },
  {
    token: "Google-Extended",
    operator: "Google",
    purpose: "ai-training",
    docs: "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers",
    note: "a control token, not a crawler: Googlebot fetches, this governs Gemini training and grounding",
  },
  {
    token: "Applebot-Extended",
    operator: "Apple",
    purpose: "ai-training",
    docs: "https://support.apple.com/en-us/119829",
    note: "a control token, not a crawler: Applebot fetches, this governs Apple AI training",
  },
  {
    token: "CCBot",
    operator: "Common Crawl",
    purpose: "ai-training",
    docs: "https://commoncrawl.org/ccbot",
    note: "an open web archive that many AI models are trained on",
  },
  {
    token: "Bytespider",
    operator: "ByteDance",
    purpose: "ai-training",
  },
  {
    token: "Meta-ExternalAgent",
    operator: "Meta",
    purpose: "ai-training",
    docs: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
  },
  {
    token: "FacebookBot",
    operator: "Meta",
    purpose: "ai-training",
    docs: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
    note: "speech-recognition and language model training",
  },
  {
    token: "Amazonbot",
    operator: "Amazon",
    purpose: "ai-training",
    docs: "https://developer.amazon.com/amazonbot",
    note: "Alexa answers and Amazon AI models",
  },
  {
    token: "Diffbot",
    operator: "Diffbot",
    purpose: "ai-training",
    docs: "https://docs.diffbot.com/docs/getting-started-with-crawl",
  },
  { token: "ImagesiftBot", operator: "Hive", purpose: "ai-training", note: "images for AI models" },
  {
    token: "Omgilibot",
    operator: "Webz.io",
    purpose: "ai-training",
    note: "sells web data used to train AI",
  },
  { token: "Timpibot", operator: "Timpi", purpose: "ai-training" },
  { token: "PanguBot", operator: "Huawei", purpose: "ai-training" },
  { token: "AI2Bot", operator: "Allen Institute for AI", purpose: "ai-training" },
  { token: "img2dataset", operator: "img2dataset (open-source tool)", purpose: "ai-training" },

  // AI search
  {
    token: "OAI-SearchBot",
    operator: "OpenAI",
    purpose: "ai-search",
    docs: "https://platform.openai.com/docs/bots",
    note: "ChatGPT search results; not used for training",
  },
  {
    token: "Claude-SearchBot",
    operator: "Anthropic",
    purpose: "ai-search",
    docs: "https://support.anthropic.com/en/articles/8896518",
  },
  {
    token: "PerplexityBot",
    operator: "Perplexity",
    purpose: "ai-search",
    docs: "https://docs.perplexity.ai/guides/bots",
  },
  { token: "YouBot", operator: "You.com", purpose: "ai-search" },

  // AI assistants (fetch on a user's request)
  {
    token: "ChatGPT-User",
    operator: "OpenAI",
    purpose: "ai-assistant",
    docs: "https://platform.openai.com/docs/bots",
  },
  {
    token: "Claude-User",
    operator: "Anthropic",
    purpose: "ai-assistant",
    docs: "https://support.anthropic.com/en/articles/8896518",
  },
  {
    token: "Claude-Web",
    operator: "Anthropic",
    purpose: "ai-assistant",
    note: "older token; Claude-User is the current one",
  },
  {
    token: "Perplexity-User",
    operator: "Perplexity",
    purpose: "ai-assistant",
    docs: "https://docs.perplexity.ai/guides/bots",
    note: "Perplexity says user-requested fetches may not follow robots.txt",
  },
  {
    token: "Meta-ExternalFetcher",
    operator: "Meta",
    purpose: "ai-assistant",
    docs: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
    note: "user-requested fetches may not follow robots.txt",
  },
  {
    token: "DuckAssistBot",
    operator: "DuckDuckGo",
    purpose: "ai-assistant",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
  },
  { token: "MistralAI-User", operator: "Mistral AI", purpose: "ai-assistant" },
  {
    token: "cohere-ai",
    operator: "Cohere",
    purpose: "ai-assistant",
    note: "undocumented by Cohere; reported to fetch for user prompts",
  },

  // SEO and marketing
  { token: "AhrefsBot", operator: "Ahrefs", purpose: "seo", docs: "https://ahrefs.com/robot" },
  {
    token: "SemrushBot",
    operator: "Semrush",
    purpose: "seo",
    docs: "https://www.semrush.com/bot/",
  },
  { token: "MJ12bot", operator: "Majestic", purpose: "seo", docs: "https://mj12bot.com/" },
  {
    token: "DotBot",
    operator: "Moz",
    purpose: "seo",
    docs: "https://moz.com/help/moz-procedures/crawlers/dotbot",
  },
  { token: "rogerbot", operator: "Moz", purpose: "seo" },
  { token: "BLEXBot", operator: "WebMeUp", purpose: "seo" },
  { token: "DataForSeoBot", operator: "DataForSEO", purpose: "seo" },
  { token: "serpstatbot", operator: "Serpstat", purpose: "seo" },

  // Archives
  {
    token: "ia_archiver",
    operator: "Internet Archive / Alexa",
    purpose: "archive",
    note: "the Wayback Machine has honoured this token",
  },

  // Social link previews
  {
    token: "Twitterbot",
    operator: "X",
    purpose: "social",
    docs: "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started",
  },
  {
    token: "facebookexternalhit",
    operator: "Meta",
    purpose: "social",
    docs: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
  },
  { token: "LinkedInBot", operator: "LinkedIn", purpose: "social" },
  { token: "Pinterestbot", operator: "Pinterest", purpose: "social" },
];
