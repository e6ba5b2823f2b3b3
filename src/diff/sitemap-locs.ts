/**
 * The `<loc>` values of a sitemap or a sitemap index (sitemaps.org), for
 * `robots diff --sitemap`: real URLs to compare instead of probe paths. A
 * bounded scan with indexOf, no RegExp and no XML parser: `<loc>` elements
 * are found in order, CDATA and the five XML entities and numeric
 * references are decoded, and reading stops at `maxLocs`. No `node:`
 * imports.
 */

export interface SitemapLocs {
  /** A `<sitemapindex>`: the locations are sitemaps, not pages. */
  readonly index: boolean;
  readonly locs: readonly string[];
  /** More `<loc>` elements than `maxLocs` were present. */
  readonly truncated: boolean;
}

/** The sitemaps protocol's own limit: 50,000 URLs per sitemap. */
export const MAX_SITEMAP_LOCS = 50_000;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** `text` with XML character and entity references decoded; unknown ones kept. */
function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const amp = text.indexOf("&", i);
    if (amp < 0) break;
    const semi = text.indexOf(";", amp);
    out += text.slice(i, amp);
    if (semi < 0 || semi - amp > 10) {
      out += "&";
      i = amp + 1;
      continue;
    }
    const name = text.slice(amp + 1, semi);
    let rep: string | undefined = ENTITIES[name];
    if (rep === undefined && name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X"
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      if (Number.isInteger(code) && code > 0 && code <= 0x10ffff) rep = String.fromCodePoint(code);
    }
    out += rep ?? text.slice(amp, semi + 1);
    i = semi + 1;
  }
  return out + text.slice(i);
}

/** The text content of one `<loc>`: CDATA sections unwrapped, references decoded, trimmed. */
function locText(raw: string): string {
  let out = "";
  let i = 0;
  while (i < raw.length) {
    const cdata = raw.indexOf("<![CDATA[", i);
    if (cdata < 0) {
      out += decodeXml(raw.slice(i));
      break;
    }
    out += decodeXml(raw.slice(i, cdata));
    const end = raw.indexOf("]]>", cdata + 9);
    if (end < 0) {
      out += raw.slice(cdata + 9);
      break;
    }
    out += raw.slice(cdata + 9, end);
    i = end + 3;
  }
  return out.trim();
}

/** Read the `<loc>` values of a sitemap's text, at most `maxLocs` of them. */
export function readSitemapLocs(xml: string, maxLocs = MAX_SITEMAP_LOCS): SitemapLocs {
  const index = xml.includes("<sitemapindex");
  const locs: string[] = [];
  let at = 0;
  let truncated = false;
  for (;;) {
    const open = xml.indexOf("<loc>", at);
    if (open < 0) break;
    const close = xml.indexOf("</loc>", open + 5);
    if (close < 0) break;
    if (locs.length >= maxLocs) {
      truncated = true;
      break;
    }
    const loc = locText(xml.slice(open + 5, close));
    if (loc !== "") locs.push(loc);
    at = close + 6;
  }
  return { index, locs, truncated };
}
