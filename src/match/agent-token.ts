/**
 * Product tokens (docs/protocol.md#choosing-rules). The matcher compares whatever it is given;
 * everything a person or a crawler calls directly validates the token first
 * and says what to pass instead.
 */
import { RobotsError } from "../errors.js";
import { isProductTokenChar, leadingProductToken } from "../protocol/product-token.js";

/** True when `token` is a valid product token: one or more of `[A-Za-z_-]`. */
export function isValidProductToken(token: unknown): token is string {
  if (typeof token !== "string" || token.length === 0) return false;
  for (let i = 0; i < token.length; i++) if (!isProductTokenChar(token.charCodeAt(i))) return false;
  return true;
}

function describeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || cp === 0x7f)
    return `control character U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (ch === " ") return "a space";
  return `"${ch}"`;
}

/**
 * Throws a RobotsError (code `invalid-agent`) unless `token` is a valid
 * product token; the message names the first bad character and what to pass.
 * Returns the token.
 */
export function validateProductToken(token: unknown): string {
  if (typeof token !== "string") {
    throw new RobotsError(
      "invalid-agent",
      `The agent must be a product token string such as "Googlebot", got ${token === null ? "null" : typeof token}`,
    );
  }
  if (token.length === 0) {
    throw new RobotsError(
      "invalid-agent",
      'The agent is empty: pass the crawler\'s product token, e.g. "Googlebot" (letters, "-" and "_")',
    );
  }
  for (let i = 0; i < token.length; ) {
    const cp = token.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (!isProductTokenChar(cp)) {
      const prefix = token.slice(0, i);
      const hint = isValidProductToken(prefix)
        ? ` Pass "${prefix}"${ch === "/" ? " (the name without its version)" : ""}`
        : ' Pass the name alone, e.g. "Googlebot"';
      throw new RobotsError(
        "invalid-agent",
        `Invalid product token ${JSON.stringify(token)}: ${describeChar(ch)} at position ${i + 1} is not allowed; a product token has only letters, "-" and "_".${hint}, or derive it from a full User-Agent header with readProductToken().`,
      );
    }
    i += ch.length;
  }
  return token;
}

/** Browser-compatibility product names that are never the crawler's own name. */
const GENERIC_PRODUCTS = new Set([
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
]);

/**
 * The product token of a full HTTP User-Agent header (docs/protocol.md#choosing-rules):
 * `Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`
 * → `Googlebot`; `CCBot/2.0 (https://commoncrawl.org/faq/)` → `CCBot`. Returns
 * a valid token or throws a RobotsError when the header names none.
 */
export function readProductToken(header: string): string {
  if (typeof header !== "string") {
    throw new RobotsError(
      "invalid-agent",
      `The User-Agent header must be a string, got ${typeof header}`,
    );
  }
  // 1. "(…; compatible; Name/1.0; …)": the name after "compatible".
  const comments: string[] = [];
  const products: string[] = [];
  let depth = 0;
  let buf = "";
  for (const ch of header) {
    if (ch === "(") {
      if (depth === 0 && buf.trim()) products.push(...buf.trim().split(/\s+/));
      if (depth === 0) buf = "";
      else buf += ch;
      depth++;
    } else if (ch === ")" && depth > 0) {
      depth--;
      if (depth === 0) {
        comments.push(buf);
        buf = "";
      } else buf += ch;
    } else buf += ch;
  }
  if (buf.trim())
    (depth === 0 ? products : comments).push(...(depth === 0 ? buf.trim().split(/\s+/) : [buf]));
  for (const c of comments) {
    const items = c.split(";").map((x) => x.trim());
    const k = items.findIndex((x) => x.toLowerCase() === "compatible");
    if (k >= 0) {
      for (const item of items.slice(k + 1)) {
        const t = leadingProductToken(item);
        if (t && !GENERIC_PRODUCTS.has(t.toLowerCase())) return t;
      }
    }
  }
  // 2. The first product that is not a browser-compatibility name.
  for (const p of products) {
    const t = leadingProductToken(p);
    if (t && !GENERIC_PRODUCTS.has(t.toLowerCase())) return t;
  }
  // 3. A bot-like name inside a comment ("Mozilla/5.0 (Bytespider; …)").
  for (const c of comments) {
    for (const item of c.split(";")) {
      const t = leadingProductToken(item.trim());
      if (t && /bot|spider|crawl|agent|fetch/i.test(t)) return t;
    }
  }
  throw new RobotsError(
    "invalid-agent",
    `No product token found in User-Agent ${JSON.stringify(header)}: pass the crawler's token explicitly, e.g. "Googlebot"`,
  );
}
