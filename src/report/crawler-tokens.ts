/**
 * What a robots.txt line naming a catalogue crawler is read as (docs/protocol.md#groups):
 * names that are not product tokens are cut (`MistralAI-User/1.0` →
 * `MistralAI-User`, `AI2Bot` → `AI`), may read as nothing, and several names
 * can read as one token, so a group naming one applies to all. The tokens
 * are in the data (src/data/crawler-catalogue.ts); this says it in words for
 * `robots agents` and the web page. No `node:` imports.
 */
import type { CrawlerInfo } from "../data/crawlers.js";
import { asciiLower } from "../protocol/product-token.js";

export interface TokenFinding {
  /** `cut`: read as a shorter token; `empty`: read as no token; `shared`: several names, one token. */
  readonly kind: "cut" | "empty" | "shared";
  readonly names: readonly string[];
  readonly token: string;
  readonly text: string;
}

function list(names: readonly string[]): string {
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The findings for `crawlers`, in their order: one per cut or empty name,
 * then one per token that several names read as. `all` is the catalogue the
 * shared tokens are looked up in (default: `crawlers`).
 */
export function tokenFindings(
  crawlers: readonly CrawlerInfo[],
  all: readonly CrawlerInfo[] = crawlers,
): TokenFinding[] {
  const out: TokenFinding[] = [];
  for (const c of crawlers) {
    if (c.token === c.name) continue;
    if (c.token === "") {
      out.push({
        kind: "empty",
        names: [c.name],
        token: "",
        text: `${JSON.stringify(c.name)} is read as no token: a User-agent line cannot name it, so only the * group applies to it`,
      });
    } else {
      out.push({
        kind: "cut",
        names: [c.name],
        token: c.token,
        text: `${JSON.stringify(c.name)} is read as ${JSON.stringify(c.token)}`,
      });
    }
  }
  const shown = new Set(crawlers.map((c) => asciiLower(c.token)));
  const byToken = new Map<string, CrawlerInfo[]>();
  for (const c of all) {
    const key = asciiLower(c.token);
    if (c.token === "" || !shown.has(key)) continue;
    byToken.set(key, [...(byToken.get(key) ?? []), c]);
  }
  for (const group of byToken.values()) {
    if (group.length < 2) continue;
    const names = group.map((c) => c.name);
    const token = group[0]!.token;
    const caseOnly = group.some((c) => c.token !== token) ? " (case does not matter)" : "";
    out.push({
      kind: "shared",
      names,
      token,
      text: `${list(names)} are ${names.length === 2 ? "both" : "all"} read as ${JSON.stringify(token)}${caseOnly}: a group naming one applies to ${names.length === 2 ? "both" : "all of them"}`,
    });
  }
  return out;
}
