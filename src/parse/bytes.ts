/**
 * Byte helpers for the parser. A robots.txt body is bytes (docs/protocol.md#vocabulary): every
 * length is in octets and invalid UTF-8 must never make parsing fail.
 */

import { RobotsError } from "../errors.js";

const utf8Encoder = new TextEncoder();
const utf8Strict = new TextDecoder("utf-8", { fatal: true });
const utf8Loose = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A copy of `s` that shares no memory with the string it was cut from.
 * V8 keeps a slice of a long string (and a join of one part) as a view of
 * the whole, so a pattern cut from a parsed file would keep every pattern
 * of that file alive in a cache that keeps only a matcher.
 */
export function ownCopy(s: string): string {
  // A join of two parts is built afresh (V8 keeps none of the text it was
  // cut from), where a slice or a join of one part may stay a view; a
  // UTF-8 round trip through TextEncoder and TextDecoder copies too, at
  // several times the cost.
  return [s.slice(0, 1), s.slice(1)].join("");
}

/**
 * `parts` joined into a string that shares no memory with them. A join
 * of one non-empty part (empty ones beside it included) answers that
 * part, which may be a view (see ownCopy); of two or more it is new.
 */
export function joinOwn(parts: readonly string[]): string {
  let only = "";
  let nonEmpty = 0;
  for (const p of parts) {
    if (p.length > 0) {
      only = p;
      nonEmpty++;
    }
  }
  return nonEmpty === 1 ? ownCopy(only) : parts.join("");
}

/**
 * A string argument means its UTF-8 encoding (docs/protocol.md#vocabulary). Subclasses of
 * Uint8Array (a Node Buffer) are viewed as a plain Uint8Array, so the parser's
 * element reads and `subarray` calls stay monomorphic; measured: Buffer's
 * `subarray` (it constructs a Buffer) was ~6% of corpus parse time.
 */
export function toBytes(body: Uint8Array | string): Uint8Array {
  if (typeof body === "string") return encodeUtf8(body);
  if (body instanceof Uint8Array) {
    return body.constructor === Uint8Array
      ? body
      : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
  throw new RobotsError(
    "invalid-argument",
    `robots.txt body must be a Uint8Array or a string, got ${body === null ? "null" : typeof body}`,
  );
}

/**
 * The UTF-8 bytes of `text`, exactly as TextEncoder#encode gives them (a lone
 * surrogate becomes U+FFFD). Through `encodeInto`: Chromium's `encode` took
 * 12–14 ms for a 500 KiB file, `encodeInto` 2 ms (the web tester hands the
 * parser bytes on every keystroke). An all-ASCII text fits a buffer of its
 * own length exactly; otherwise the rest is encoded into room for 3 bytes a
 * UTF-16 unit and the result copied to its exact size.
 */
export function encodeUtf8(text: string): Uint8Array {
  const head = new Uint8Array(text.length);
  const first = utf8Encoder.encodeInto(text, head);
  // Every UTF-16 unit read gave at least one byte: all read means all ASCII.
  if (first.read === text.length) return head;
  const all = new Uint8Array(first.written + 3 * (text.length - first.read));
  all.set(head.subarray(0, first.written));
  const rest = utf8Encoder.encodeInto(text.slice(first.read), all.subarray(first.written));
  return all.slice(0, first.written + rest.written);
}

/**
 * ASCII whitespace as the reference strips it (absl::ascii_isspace):
 * space, tab, LF, VT, FF, CR (docs/protocol.md#whitespace).
 */
export function isAsciiSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** True when bytes [start, end) are all ASCII (< 0x80). */
export function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/**
 * Text of bytes [start, end) known to be ASCII. Measured on the corpus's 1.6M
 * directive values: TextDecoder 445 ms, String.fromCharCode.apply over a view
 * 693 ms, char-by-char concatenation 769 ms, decoding each whole body once and
 * slicing 1,007 ms (most bytes of the big files are HTML nobody reads).
 */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  const len = end - start;
  if (len === 1) return String.fromCharCode(bytes[start]!);
  if (len > INTERN_MAX_LEN) return utf8Loose.decode(bytes.subarray(start, end));
  // Short values repeat across files and groups (`/`, `*`, `/wp-admin/`: over
  // the corpus 967k short agent and rule values are only 243k distinct), so a
  // bounded direct-mapped table returns the string already made, for less
  // retained heap (docs/performance-decisions.md, Parsing).
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  const slot = (h ^ (h >>> 15)) & INTERN_MASK;
  const cached = internTable[slot];
  if (cached !== undefined && cached.length === len) {
    let i = 0;
    while (i < len && cached.charCodeAt(i) === bytes[start + i]) i++;
    if (i === len) return cached;
  }
  // One String.fromCharCode call over a reused array of this length: no
  // typed-array view and no call into the decoder. Measured over the
  // corpus's short ASCII values (2–48 bytes): TextDecoder 237 ms, this 133 ms.
  const args = charArgs[len]!;
  for (let i = 0; i < len; i++) args[i] = bytes[start + i]!;
  const text = String.fromCharCode.apply(null, args);
  internTable[slot] = text;
  return text;
}

/** Values at most this long are interned (longer ones rarely repeat). */
const INTERN_MAX_LEN = 48;
const INTERN_MASK = (1 << 14) - 1;
/** Bounded: 16,384 short strings at most, for the life of the process. */
const internTable: (string | undefined)[] = new Array(INTERN_MASK + 1).fill(undefined);
/** `charArgs[k]` holds k small integers: the argument list for a k-byte string. */
const charArgs: number[][] = [];
for (let k = 0; k <= INTERN_MAX_LEN; k++) charArgs.push(new Array<number>(k).fill(0));

/** Characters of bytes [start, end) as code points U+0000–U+00FF, one per byte. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  if (isAscii(bytes, start, end)) return asciiText(bytes, start, end);
  if (end - start <= 4096) {
    return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  let out = "";
  for (let i = start; i < end; i += 4096) {
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[],
    );
  }
  return out;
}

/**
 * Text of bytes [start, end) for people: UTF-8 when the bytes are valid UTF-8,
 * otherwise one code point per byte (Latin-1), so no byte is ever lost.
 */
export function decodeText(bytes: Uint8Array, start: number, end: number): string {
  if (isAscii(bytes, start, end)) return asciiText(bytes, start, end);
  try {
    return utf8Strict.decode(bytes.subarray(start, end));
  } catch {
    return latin1(bytes, start, end);
  }
}

const HEX = "0123456789ABCDEF";

function upperHex(b: number): number {
  return b >= 0x61 ? b - 0x20 : b;
}

export function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/**
 * True when normalizePattern would return bytes [start, end) unchanged: all
 * ASCII, and every `%xx` escape already uppercase (most rules).
 */
export function isNormalized(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return false;
    if (b === 0x25 && i + 2 < end && isHexDigit(bytes[i + 1]!) && isHexDigit(bytes[i + 2]!)) {
      if (bytes[i + 1]! >= 0x61 || bytes[i + 2]! >= 0x61) return false;
      i += 2;
    }
  }
  return true;
}

/**
 * Normalise an allow/disallow value (docs/protocol.md#rule-values): every byte >= 0x80 becomes
 * `%XX` (uppercase hex), the hex digits of existing `%xx` escapes are
 * uppercased, nothing is decoded. The result is always ASCII, so its string
 * length equals its length in octets (the rule's priority, docs/protocol.md#matching).
 */
export function normalizePattern(bytes: Uint8Array, start: number, end: number): string {
  if (isNormalized(bytes, start, end)) return asciiText(bytes, start, end);
  let out = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === 0x25 && i + 2 < end && isHexDigit(bytes[i + 1]!) && isHexDigit(bytes[i + 2]!)) {
      out += `%${String.fromCharCode(upperHex(bytes[i + 1]!), upperHex(bytes[i + 2]!))}`;
      i += 2;
    } else if (b >= 0x80) {
      out += `%${HEX[b >> 4]}${HEX[b & 0xf]}`;
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}
