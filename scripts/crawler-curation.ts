/**
 * The hand-kept half of the crawler catalogue: search engines, SEO tools,
 * archives and other crawlers that ai.robots.txt does not list, and our own
 * category, operator name and note for each AI crawler it does list.
 * scripts/import-ai-robots.ts merges this with ai.robots.txt's robots.json
 * into src/data/crawler-catalogue.ts. Notes are ours: one sentence a site
 * owner can act on, never ai.robots.txt's descriptions.
 */
import type { CrawlerCategory, HonoursRobotsTxt } from "../src/data/crawler-info.js";

/** A crawler ai.robots.txt does not list, or one whose entry we keep by hand. */
export interface HandKeptCrawler {
  readonly name: string;
  readonly operator: string;
  readonly category: CrawlerCategory;
  /** When absent and ai.robots.txt lists the name, its report decides. */
  readonly honoursRobotsTxt?: HonoursRobotsTxt;
  readonly docs?: string;
  readonly note?: string;
  readonly fallback?: string;
  readonly ignoresGlobal?: boolean;
}

/** Our reading of one ai.robots.txt entry. */
export interface Curation {
  readonly category: CrawlerCategory;
  /** The operator's name, where ai.robots.txt gives none or a sentence instead. */
  readonly operator?: string;
  readonly docs?: string;
  readonly note?: string;
  /**
   * Whether it honours robots.txt, settled by us with a cited source where
   * ai.robots.txt's spellings of one crawler disagree (SAME_CRAWLER).
   */
  readonly honours?: { readonly value: HonoursRobotsTxt; readonly source: string };
}

const GOOGLE_CRAWLERS = "https://developers.google.com/search/docs/crawling-indexing";
const OPENAI_BOTS = "https://platform.openai.com/docs/bots";
const ANTHROPIC_BOTS = "https://support.anthropic.com/en/articles/8896518";
const META_CRAWLERS = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";
const PERPLEXITY_BOTS = "https://docs.perplexity.ai/guides/bots";

export const HAND_KEPT: readonly HandKeptCrawler[] = [
  // Search engines
  {
    name: "Googlebot",
    operator: "Google",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/googlebot`,
    note: "ignores Crawl-delay",
  },
  // Google's common-crawlers page lists two user agent tokens for each of
  // these (e.g. "Googlebot-Image, Googlebot"), and its crawler overview says
  // a rule applies when one token matches: a group naming the crawler, else
  // the Googlebot group, else *.
  {
    name: "Googlebot-Image",
    operator: "Google",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/google-common-crawlers`,
    note: "Google Images and image results; follows the Googlebot group when not named",
    fallback: "Googlebot",
  },
  {
    name: "Googlebot-News",
    operator: "Google",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/google-common-crawlers`,
    note: "Google News; follows the Googlebot group when not named",
    fallback: "Googlebot",
  },
  {
    name: "Googlebot-Video",
    operator: "Google",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/google-common-crawlers`,
    note: "video results; follows the Googlebot group when not named",
    fallback: "Googlebot",
  },
  {
    name: "bingbot",
    operator: "Microsoft",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
    note: "also feeds Copilot answers; honours Crawl-delay",
  },
  {
    name: "Applebot",
    operator: "Apple",
    category: "search",
    docs: "https://support.apple.com/en-us/119829",
    note: "Siri, Spotlight and Safari suggestions; follows the Googlebot group when not named",
    fallback: "Googlebot",
  },
  {
    name: "DuckDuckBot",
    operator: "DuckDuckGo",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot",
  },
  {
    name: "YandexBot",
    operator: "Yandex",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html",
  },
  {
    name: "Baiduspider",
    operator: "Baidu",
    category: "search",
    honoursRobotsTxt: "yes",
    docs: "https://www.baidu.com/search/robots_english.html",
  },
  { name: "Slurp", operator: "Yahoo", category: "search", honoursRobotsTxt: "yes" },
  { name: "Yeti", operator: "Naver", category: "search", honoursRobotsTxt: "yes" },
  { name: "SeznamBot", operator: "Seznam", category: "search", honoursRobotsTxt: "yes" },
  {
    name: "PetalBot",
    operator: "Huawei",
    category: "search",
    note: "Petal Search; its index also feeds Huawei's assistant",
  },

  // SEO and marketing
  {
    name: "AhrefsBot",
    operator: "Ahrefs",
    category: "seo",
    honoursRobotsTxt: "yes",
    docs: "https://ahrefs.com/robot",
  },
  {
    name: "SemrushBot",
    operator: "Semrush",
    category: "seo",
    honoursRobotsTxt: "yes",
    docs: "https://www.semrush.com/bot/",
  },
  {
    name: "MJ12bot",
    operator: "Majestic",
    category: "seo",
    honoursRobotsTxt: "yes",
    docs: "https://mj12bot.com/",
  },
  {
    name: "DotBot",
    operator: "Moz",
    category: "seo",
    honoursRobotsTxt: "yes",
    docs: "https://moz.com/help/moz-procedures/crawlers/dotbot",
  },
  { name: "rogerbot", operator: "Moz", category: "seo", honoursRobotsTxt: "yes" },
  { name: "BLEXBot", operator: "WebMeUp", category: "seo", honoursRobotsTxt: "yes" },
  { name: "DataForSeoBot", operator: "DataForSEO", category: "seo", honoursRobotsTxt: "yes" },
  { name: "serpstatbot", operator: "Serpstat", category: "seo", honoursRobotsTxt: "yes" },

  // Archives
  {
    name: "ia_archiver",
    operator: "Internet Archive / Alexa",
    category: "archive",
    honoursRobotsTxt: "unclear",
    note: "an old Alexa token the Wayback Machine has honoured; the Internet Archive has said it may not",
  },
  {
    name: "archive.org_bot",
    operator: "Internet Archive",
    category: "archive",
    honoursRobotsTxt: "unclear",
    note: "the Internet Archive's own crawler",
  },

  // Other: ad checks and link previews
  {
    name: "AdsBot-Google",
    operator: "Google",
    category: "other",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/google-special-case-crawlers`,
    note: "checks ad landing pages; ignores the * group: only a group naming it applies",
    ignoresGlobal: true,
  },
  {
    name: "Mediapartners-Google",
    operator: "Google",
    category: "other",
    honoursRobotsTxt: "yes",
    docs: `${GOOGLE_CRAWLERS}/google-special-case-crawlers`,
    note: "AdSense; ignores the * group",
    ignoresGlobal: true,
  },
  {
    name: "Twitterbot",
    operator: "X",
    category: "other",
    honoursRobotsTxt: "yes",
    docs: "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started",
    note: "link previews",
  },
  {
    name: "facebookexternalhit",
    operator: "Meta",
    category: "other",
    docs: META_CRAWLERS,
    note: "link previews when a page is shared; Meta says it may skip robots.txt for that",
  },
  {
    name: "LinkedInBot",
    operator: "LinkedIn",
    category: "other",
    honoursRobotsTxt: "yes",
    note: "link previews",
  },
  {
    name: "Pinterestbot",
    operator: "Pinterest",
    category: "other",
    honoursRobotsTxt: "yes",
    note: "pins and link previews",
  },
];

const TRAIN = "ai-training";
const SEARCH = "ai-search";
const USER = "ai-user-triggered";
const UNDOCUMENTED = "named as an AI crawler by ai.robots.txt; what it does is not documented";
const CONTROL = "a control token, not a crawler: another crawler fetches, this token governs use";
const ANYONE = "a tool anyone can run: the name says nothing about who is fetching";

/** Our reading of every ai.robots.txt entry, by its name there. */
export const AI_CURATION: Readonly<Record<string, Curation>> = {
  AddSearchBot: { category: SEARCH },
  AgentTimes: { category: "other", note: "reads RSS feeds for an AI-written news site" },
  AI2Bot: { category: TRAIN, note: "open models and datasets of the Allen Institute for AI" },
  "AI2Bot-DeepResearchEval": {
    category: USER,
    operator: "Ai2",
    note: "research agents that fetch pages while they work",
  },
  "Ai2Bot-Dolma": { category: TRAIN, note: "the Dolma open training dataset" },
  aiHitBot: { category: TRAIN, note: "company data compiled with machine learning" },
  AIWebIndex: { category: SEARCH, operator: "Lyrenth" },
  "amazon-kendra": { category: SEARCH, note: "crawls the sites an Amazon Kendra customer sets up" },
  "amazon-QBusiness": { category: USER, operator: "Amazon" },
  Amazonbot: {
    category: TRAIN,
    docs: "https://developer.amazon.com/amazonbot",
    note: "Alexa answers and Amazon AI models",
  },
  AmazonBuyForMe: { category: USER, operator: "Amazon", note: "shopping agent" },
  "Amzn-SearchBot": { category: SEARCH, operator: "Amazon" },
  "Amzn-User": { category: USER, operator: "Amazon" },
  Andibot: { category: SEARCH },
  Anomura: { category: SEARCH },
  "anthropic-ai": {
    category: TRAIN,
    operator: "Anthropic",
    note: "older token; ClaudeBot is the current one",
  },
  ApifyBot: { category: TRAIN, operator: "Apify", note: ANYONE },
  ApifyWebsiteContentCrawler: { category: TRAIN, operator: "Apify", note: ANYONE },
  "Applebot-Extended": {
    category: TRAIN,
    operator: "Apple",
    docs: "https://support.apple.com/en-us/119829",
    note: `${CONTROL} (Applebot fetches)`,
  },
  "Aranet-SearchBot": { category: SEARCH },
  "atlassian-bot": { category: SEARCH, note: "indexes sites an Atlassian customer connects" },
  Awario: { category: "other", note: "brand and social media monitoring" },
  "AzureAI-SearchBot": { category: SEARCH, operator: "Microsoft" },
  bedrockbot: {
    category: SEARCH,
    note: "crawls the sites an Amazon Bedrock customer adds to a knowledge base",
  },
  "bigsur.ai": { category: SEARCH, operator: "Big Sur AI" },
  Bravebot: {
    category: "search",
    operator: "Brave",
    note: "Brave Search; its index is also sold to AI companies",
  },
  Brightbot: { category: TRAIN, operator: "Bright Data" },
  BuddyBot: { category: USER, note: "a learning companion for children" },
  Bytespider: { category: TRAIN },
  CCBot: {
    category: TRAIN,
    operator: "Common Crawl",
    docs: "https://commoncrawl.org/ccbot",
    note: "an open web archive that many AI models are trained on",
  },
  Channel3Bot: { category: SEARCH },
  "ChatGLM-Spider": { category: TRAIN, note: "named after the ChatGLM models" },
  "ChatGPT Agent": { category: USER, docs: OPENAI_BOTS },
  "ChatGPT-User": { category: USER, docs: OPENAI_BOTS },
  "Claude-Code": { category: USER, operator: "Anthropic", note: "coding agent" },
  "Claude-SearchBot": { category: SEARCH, docs: ANTHROPIC_BOTS },
  "Claude-User": { category: USER, docs: ANTHROPIC_BOTS },
  "Claude-Web": { category: USER, note: "older token; Claude-User is the current one" },
  ClaudeBot: { category: TRAIN, docs: ANTHROPIC_BOTS },
  "Cloudflare-AutoRAG": {
    category: SEARCH,
    note: "indexes sites for a Cloudflare customer's AI search",
  },
  CloudVertexBot: { category: SEARCH },
  Code: { category: USER, note: "coding agent; a very generic name" },
  "cohere-ai": {
    category: USER,
    note: "undocumented by Cohere; reported to fetch for user prompts",
  },
  "cohere-training-data-crawler": { category: TRAIN, operator: "Cohere" },
  Cotoyogi: { category: TRAIN, operator: "ROIS (Japan)" },
  CragCrawler: { category: TRAIN, operator: "CragSoftware" },
  Crawl4AI: { category: TRAIN, operator: "Crawl4AI (open-source tool)", note: ANYONE },
  Crawlspace: { category: TRAIN },
  Cursor: { category: USER, operator: "Anysphere", note: "coding agent" },
  "Datenbank Crawler": { category: TRAIN },
  DeepSeekBot: { category: TRAIN },
  Devin: { category: USER, operator: "Cognition", note: "coding agent" },
  Diffbot: {
    category: TRAIN,
    docs: "https://docs.diffbot.com/docs/getting-started-with-crawl",
    note: "its customers decide what is crawled",
  },
  DuckAssistBot: {
    category: USER,
    operator: "DuckDuckGo",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
  },
  "Echobot Bot": { category: "other", note: "social media publishing" },
  EchoboxBot: { category: "other", note: "social media publishing" },
  ExaBot: { category: SEARCH, operator: "Exa" },
  ExaSearchBot: { category: SEARCH },
  FacebookBot: {
    category: TRAIN,
    operator: "Meta",
    docs: META_CRAWLERS,
    note: "speech-recognition and language model training",
  },
  Factset_spyderbot: { category: TRAIN, operator: "FactSet" },
  FirecrawlAgent: {
    category: TRAIN,
    operator: "Firecrawl",
    note: "a scraping service: its customers decide what is fetched",
  },
  FriendlyCrawler: { category: TRAIN },
  "GeistHaus-PageFetcher": { category: USER, operator: "GeistHaus" },
  "Gemini-Deep-Research": { category: USER, operator: "Google" },
  "Google-Agent": { category: USER, operator: "Google" },
  "Google-CloudVertexBot": {
    category: SEARCH,
    note: "crawls sites a Vertex AI customer asks for, usually the customer's own",
  },
  "Google-Extended": {
    category: TRAIN,
    docs: `${GOOGLE_CRAWLERS}/google-common-crawlers`,
    note: `${CONTROL} (Googlebot fetches; this governs Gemini training and grounding)`,
  },
  "Google-Firebase": { category: USER, note: "fetches for apps built on Firebase AI" },
  "Google-Gemini-CLI": { category: USER, operator: "Google", note: "coding agent" },
  "Google-NotebookLM": { category: USER, operator: "Google" },
  "GoogleAgent-Mariner": { category: USER, note: "browser agent" },
  "GoogleAgent-URLContext": { category: USER, operator: "Google" },
  GoogleOther: { category: "other", note: "Google's crawler for research and one-off fetches" },
  "GoogleOther-Image": { category: "other", note: "GoogleOther for images" },
  "GoogleOther-Video": { category: "other", note: "GoogleOther for videos" },
  GPTBot: { category: TRAIN, docs: OPENAI_BOTS },
  HenkBot: { category: TRAIN },
  iAskBot: { category: SEARCH, operator: "iAsk" },
  iaskspider: {
    category: SEARCH,
    operator: "iAsk",
    // ai.robots.txt says "Unclear" for iaskspider and "No" for
    // iaskspider/2.0, and iAsk documents neither: the cautious reading wins,
    // so a site owner does not count on a Disallow it may ignore.
    honours: {
      value: "no",
      source: "https://github.com/ai-robots-txt/ai.robots.txt/blob/main/robots.json",
    },
  },
  "ICC-Crawler": { category: TRAIN },
  ImagesiftBot: { category: TRAIN, note: "images for AI products" },
  imageSpider: { category: TRAIN },
  img2dataset: { category: TRAIN, operator: "img2dataset (open-source tool)", note: ANYONE },
  ISSCyberRiskCrawler: { category: TRAIN, operator: "ISS Corporate" },
  "kagi-fetcher": { category: USER, operator: "Kagi" },
  "Kangaroo Bot": { category: TRAIN },
  "Kimi-User": { category: USER, operator: "Moonshot AI" },
  KlaviyoAIBot: { category: SEARCH, note: "indexes a Klaviyo customer's site for its AI agent" },
  KunatoCrawler: { category: "other", note: UNDOCUMENTED },
  "laion-huggingface-processor": { category: TRAIN },
  LAIONDownloader: { category: TRAIN, operator: "LAION", note: "open image-text datasets" },
  LCC: { category: TRAIN },
  Lightpanda: {
    category: "other",
    operator: "anyone (open-source browser)",
    note: ANYONE,
  },
  LinerBot: { category: USER },
  "Linguee Bot": { category: TRAIN, note: "translation examples" },
  LinkupBot: { category: SEARCH },
  "Manus-User": { category: USER, operator: "Butterfly Effect (Manus)", note: "browser agent" },
  "Meta-ExternalAgent": { category: TRAIN, operator: "Meta", docs: META_CRAWLERS },
  "Meta-ExternalFetcher": { category: USER, operator: "Meta", docs: META_CRAWLERS },
  "meta-webindexer": { category: SEARCH, operator: "Meta", docs: META_CRAWLERS },
  "MistralAI-User": {
    category: USER,
    operator: "Mistral AI",
    docs: "https://docs.mistral.ai/robots",
    // ai.robots.txt says "Unclear" for MistralAI-User and "Yes" for
    // MistralAI-User/1.0; Mistral's page, the one its User-Agent header
    // links, says Le Chat's fetcher follows robots.txt.
    honours: { value: "yes", source: "https://docs.mistral.ai/robots" },
  },
  "Mozilla-Tabstack": { category: USER, note: "fetches pages for AI agents through an API" },
  MyCentralAIScraperBot: { category: TRAIN },
  NagetBot: { category: TRAIN, operator: "Naget" },
  "netEstate Imprint Crawler": { category: "other", note: "collects site imprint pages" },
  newsai: { category: TRAIN },
  NotebookLM: { category: USER, operator: "Google" },
  NovaAct: { category: USER, operator: "Amazon", note: "browser agent" },
  "OAI-SearchBot": {
    category: SEARCH,
    docs: OPENAI_BOTS,
    note: "ChatGPT search results; not used for training",
  },
  omgili: { category: TRAIN, note: "older token of omgilibot" },
  omgilibot: { category: TRAIN, note: "sells web data used to train AI" },
  OpenAI: { category: "other", note: UNDOCUMENTED },
  opencode: { category: USER, note: "open-source coding agent" },
  Operator: { category: USER, operator: "OpenAI", note: "browser agent" },
  PanguBot: { category: TRAIN, operator: "Huawei" },
  Panscient: { category: TRAIN },
  "Perplexity-User": {
    category: USER,
    docs: PERPLEXITY_BOTS,
    note: "Perplexity says user-requested fetches may not follow robots.txt",
  },
  PerplexityBot: { category: SEARCH, docs: PERPLEXITY_BOTS },
  PhindBot: { category: SEARCH, operator: "Phind" },
  "Poggio-Citations": { category: USER, operator: "Poggio" },
  "Poseidon Research Crawler": { category: TRAIN },
  QualifiedBot: { category: SEARCH, note: "indexes a Qualified customer's site for its AI agent" },
  "Querit-SearchBot": { category: SEARCH, operator: "Querit" },
  QueritBot: { category: SEARCH, operator: "Querit" },
  QuillBot: { category: USER, operator: "QuillBot" },
  Reflectionbot: { category: "other", note: UNDOCUMENTED },
  SBIntuitionsBot: { category: TRAIN },
  Scrapy: {
    category: "other",
    operator: "anyone (Scrapy, by Zyte)",
    note: "the default name of the open-source Scrapy framework; anyone can run it",
  },
  "SemrushBot-OCOB": { category: "seo", note: "Semrush's AI content tool" },
  "SemrushBot-SWA": { category: "seo", note: "Semrush's writing assistant" },
  "Shap-User": { category: USER },
  ShapBot: { category: SEARCH, note: "search and crawl APIs for AI agents" },
  "Sidetrade indexer bot": { category: TRAIN },
  Spider: { category: TRAIN, note: "a very generic name" },
  TavilyBot: { category: SEARCH, operator: "Tavily" },
  "Terra Cotta": { category: TRAIN, operator: "Ceramic AI" },
  TerraCotta: { category: TRAIN },
  Thinkbot: { category: "other" },
  TikTokSpider: { category: TRAIN },
  Timpibot: { category: TRAIN },
  TongyiBot: { category: USER, operator: "Alibaba" },
  Trae: { category: USER, operator: "ByteDance", note: "coding agent" },
  TwinAgent: { category: USER, operator: "Twin", note: "browser agent" },
  UseAI: { category: USER },
  VelenPublicWebCrawler: { category: TRAIN },
  WARDBot: { category: TRAIN, operator: "WEBSPARK" },
  "Webzio-Extended": { category: TRAIN, operator: "Webz.io", note: CONTROL },
  wpbot: { category: "other", note: "a WordPress chat plugin" },
  WRTNBot: { category: "other", note: UNDOCUMENTED },
  YaK: { category: "other", note: "media monitoring" },
  YandexAdditional: { category: SEARCH, note: "AI answers in Yandex search" },
  YandexAdditionalBot: { category: SEARCH, note: "AI answers in Yandex search" },
  YiyanBot: { category: USER, operator: "Baidu" },
  YouBot: { category: SEARCH },
  ZanistaBot: { category: SEARCH },
};

/**
 * Spellings ai.robots.txt lists separately for one crawler, read as the same
 * token (a case variant, a version, a domain): one catalogue row each, under
 * the canonical name, with the others in `alsoListedAs`. Where their facts
 * disagree, the canonical name's curation settles them with a cited source
 * (`honours`); the import stops otherwise.
 */
export const SAME_CRAWLER: Readonly<Record<string, string>> = {
  "Brightbot 1.0": "Brightbot",
  "iaskspider/2.0": "iaskspider",
  "meta-externalagent": "Meta-ExternalAgent",
  "meta-externalfetcher": "Meta-ExternalFetcher",
  "MistralAI-User/1.0": "MistralAI-User",
  "panscient.com": "Panscient",
  "quillbot.com": "QuillBot",
  "webzio-extended": "Webzio-Extended",
};
