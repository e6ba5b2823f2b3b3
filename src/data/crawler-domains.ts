/**
 * The host-name domains crawler operators publish for verifying their
 * crawlers by reverse DNS and forward confirmation: the PTR name of a
 * crawler's address ends in one of these, and that name resolves back to the
 * address. Keyed by the catalogue's `operator`. Sources: each operator's
 * verification page (Google, Microsoft, Apple, Yandex, Baidu, DuckDuckGo,
 * Naver, Seznam, Yahoo, Huawei, Amazon, OpenAI, Common Crawl).
 */
export const OPERATOR_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  Google: ["googlebot.com", "google.com", "googleusercontent.com"],
  Microsoft: ["search.msn.com"],
  Apple: ["applebot.apple.com"],
  Yandex: ["yandex.ru", "yandex.net", "yandex.com"],
  Baidu: ["baidu.com", "baidu.jp"],
  Yahoo: ["crawl.yahoo.net"],
  Seznam: ["seznam.cz"],
  Naver: ["naver.com"],
  Huawei: ["petalsearch.com"],
  Amazon: ["crawl.amazonbot.amazon"],
  "Common Crawl": ["crawl.commoncrawl.org"],
};
