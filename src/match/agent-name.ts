/**
 * One reading of a crawler name typed by a person or passed by a program
 * (docs/protocol.md#choosing-rules, "Names people type"): the CLI, the
 * tester, expectations files, `readProductToken` and the robots-parser
 * drop-in all read names here.
 *
 * - A product token (`GPTBot`) is itself.
 * - A whole User-Agent header is read as the crawler that sends it: the
 *   product after `compatible;`, else the first product or comment item
 *   that the catalogue knows (`Mozilla/5.0 (compatible; Googlebot/2.1; …)`
 *   → `Googlebot`), else one whose name says it crawls (`…bot`, `…spider`).
 *   A header that names no crawler is read as Google's reference reads the
 *   string: its leading `[A-Za-z_-]` run (`Mozilla/5.0 … Chrome/120` →
 *   `Mozilla`).
 * - Any other value is read as a `User-agent:` line with it is read
 *   (docs/protocol.md#groups): `MJ12bot` → `MJ`, `Googlebot/2.1` → `Googlebot`.
 */
import { CRAWLERS } from "../data/crawlers.js";
import { asciiLower, leadingProductToken } from "../protocol/product-token.js";

/** A crawler name as typed, and the token it is matched as. */
export interface AgentName {
  /** The name as typed (trimmed). */
  readonly name: string;
  /**
   * The token it is matched as; `*` when it reads as no token, so only the
   * `*` groups apply.
   */
  readonly token: string;
  /** Why the token differs from the name, as a sentence; absent when they are the same. */
  readonly note?: string;
}

/** Browser-compatibility product names that are never a crawler's own name. */
const GENERIC_PRODUCTS: ReadonlySet<string> = new Set([
  "mozilla",
  "applewebkit",
  "khtml",
  "like",
  "gecko",
  "chrome",
  "chromium",
  "safari",
  "mobile",
  "version",
  "firefox",
  "edg",
  "opr",
  "compatible",
  "msie",
  "trident",
]);

/** The catalogue's tokens as a line reads them, lower-cased. */
const KNOWN_TOKENS: ReadonlySet<string> = new Set(
  CRAWLERS.map((c) => asciiLower(leadingProductToken(c.token))).filter((t) => t !== ""),
);

/** A name that says it crawls, for crawlers the catalogue does not list. */
function soundsLikeCrawler(token: string): boolean {
  const t = asciiLower(token);
  return t.includes("bot") || t.includes("spider") || t.includes("crawl");
}

/** Does `text` look like a User-Agent header rather than a `User-agent:` line value? */
function isHeader(text: string): boolean {
  return /[\s(;]/.test(text);
}

interface HeaderParts {
  /** Products and comment items, in header order (`Mozilla/5.0`, `compatible`, `Googlebot/2.1`). */
  readonly items: string[];
  /** The `;`-separated items of each top-level comment, in order. */
  readonly comments: string[][];
}

/** Split a header into its products and comments (RFC 9110 §10.1.5, leniently). */
function headerParts(header: string): HeaderParts {
  const items: string[] = [];
  const comments: string[][] = [];
  let depth = 0;
  let buf = "";
  const flush = (inComment: boolean): void => {
    if (!inComment) items.push(...buf.split(/\s+/).filter((p) => p !== ""));
    else {
      const comment = buf.split(";").map((x) => x.trim());
      comments.push(comment);
      items.push(...comment);
    }
    buf = "";
  };
  for (const ch of header) {
    if (ch === "(") {
      if (depth === 0) flush(false);
      else buf += ch;
      depth++;
    } else if (ch === ")" && depth > 0) {
      depth--;
      if (depth === 0) flush(true);
      else buf += ch;
    } else buf += ch;
  }
  if (buf.trim() !== "") flush(depth > 0);
  return { items, comments };
}

/** How a header was read: the crawler it names, or the string as the reference reads it. */
interface HeaderReading {
  /** The token; "" when the header names no crawler and starts with no token. */
  readonly token: string;
  readonly names: boolean;
}

/**
 * The token of the crawler a User-Agent header names, or, when it names
 * none, the header's leading token as the reference reads the string.
 */
function readHeader(header: string): HeaderReading {
  const { items, comments } = headerParts(header);
  // 1. "(…; compatible; Name/1.0; …)": the name after "compatible".
  for (const comment of comments) {
    const k = comment.findIndex((x) => asciiLower(x) === "compatible");
    if (k < 0) continue;
    for (const item of comment.slice(k + 1)) {
      // A product is one word (`Googlebot/2.1`); `Windows NT 6.0` is no crawler.
      if (/\s/.test(item)) continue;
      const t = leadingProductToken(item);
      if (t !== "" && !GENERIC_PRODUCTS.has(asciiLower(t))) return { token: t, names: true };
    }
  }
  const names = items.map(leadingProductToken).filter((t) => t !== "");
  // 2. A crawler the catalogue knows.
  const known = names.find((t) => KNOWN_TOKENS.has(asciiLower(t)));
  if (known !== undefined) return { token: known, names: true };
  // 3. The first product, unless it is a browser's: its own name, which is
  // also the reference's reading of the string.
  const lead = leadingProductToken(header.trim());
  if (lead !== "" && !GENERIC_PRODUCTS.has(asciiLower(lead))) return { token: lead, names: true };
  // 4. A browser-like header naming something that crawls.
  const crawler = names.find((t) => !GENERIC_PRODUCTS.has(asciiLower(t)) && soundsLikeCrawler(t));
  if (crawler !== undefined) return { token: crawler, names: true };
  // 5. No crawler named: the reference's reading of the string (`Mozilla`).
  return { token: lead, names: false };
}

/**
 * The product token of a User-Agent header as readAgentName reads it; ""
 * when the header names no crawler and starts with no token.
 */
export function crawlerTokenOfHeader(header: string): string {
  return readHeader(header).token;
}

/**
 * Read a crawler name typed by a person (or passed by a program): see the
 * module comment. `note` says how the name was read whenever the token
 * differs from it.
 */
export function readAgentName(typed: string): AgentName {
  const name = typed.trim();
  const lead = leadingProductToken(name);
  if (lead === name && name !== "") return { name, token: name };
  if (name === "*") {
    return {
      name,
      token: "*",
      note: `"*" is no crawler's name: read as a crawler that no group names, so only the * groups apply.`,
    };
  }
  const shown = JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
  if (isHeader(name)) {
    const { token, names } = readHeader(name);
    if (token === "") {
      return {
        name,
        token: "*",
        note: `${shown} names no crawler and does not start with a product token: only the * groups apply.`,
      };
    }
    return {
      name,
      token,
      note: names
        ? `the User-Agent header ${shown} is read as the crawler it names, ${JSON.stringify(token)}.`
        : `the User-Agent header ${shown} names no crawler: read as ${JSON.stringify(token)}, as Google's reference reads the string (docs/protocol.md#choosing-rules).`,
    };
  }
  if (lead === "") {
    return {
      name,
      token: "*",
      note: `${shown} does not start with a product token (letters, "-" and "_"): no User-agent line can name it, so only the * groups apply.`,
    };
  }
  return {
    name,
    token: lead,
    note: `${shown} is not a product token: read as ${JSON.stringify(lead)}, as a line "User-agent: ${name}" is read (docs/protocol.md#groups).`,
  };
}
