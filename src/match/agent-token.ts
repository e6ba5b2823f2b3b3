/**
 * Product tokens (docs/protocol.md#choosing-rules). The matcher compares whatever it is given;
 * everything a person or a crawler calls directly validates the token first
 * and says what to pass instead.
 */
import { RobotsError } from "../errors.js";
import { isProductTokenChar } from "../protocol/product-token.js";
import { readAgentName } from "./agent-name.js";

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

/**
 * The product token of a full HTTP User-Agent header, read as every surface
 * reads a crawler name (readAgentName, docs/protocol.md#choosing-rules): the
 * crawler it names (`Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`
 * → `Googlebot`; `CCBot/2.0 (https://commoncrawl.org/faq/)` → `CCBot`), else
 * its leading token as Google's reference reads the string (a browser's
 * `Mozilla/5.0 (Windows NT 10.0) … Chrome/120` → `Mozilla`). Throws a
 * RobotsError when it starts with no token and names no crawler.
 */
export function readProductToken(header: string): string {
  if (typeof header !== "string") {
    throw new RobotsError(
      "invalid-agent",
      `The User-Agent header must be a string, got ${typeof header}`,
    );
  }
  const token = readAgentName(header).token;
  if (isValidProductToken(token)) return token;
  throw new RobotsError(
    "invalid-agent",
    `No product token found in User-Agent ${JSON.stringify(header)}: pass the crawler's token explicitly, e.g. "Googlebot"`,
  );
}
