/**
 * How much of a robots.txt a crawler reads (docs/protocol.md#size-limit, RFC 9309
 * §2.5): at most a configurable limit, 500 KiB by default and never less.
 * The one home of that number and of what happens at the cut; the client,
 * the CLI, explanations and the linter all read a body through
 * `crawlerView`.
 */

/** 500 KiB: RFC 9309 §2.5's minimum, docs/protocol.md#access-method's default and floor. */
export const ROBOTS_TXT_SIZE_LIMIT = 500 * 1024;

/**
 * The bytes a crawler applies when it has read only the first `limit` bytes
 * of `body`: when the body is longer, the partial line the limit cuts is
 * dropped too, so a cut line never applies (`Allow: /private/page` cut to
 * `Allow: /private` would allow more than the file says). What is kept ends
 * with the last line ending (CR or LF, as the parser reads them) at or before
 * the limit; a body with no line ending before the limit applies nothing.
 * A line whose last byte is the limit's last and whose line ending is the
 * byte right after it is not cut: all of it was read, and it applies (the
 * kept bytes then end with that line's content, not its line ending).
 *
 * `truncated` is whether the body was longer than the limit. Returns a view
 * (no copy) of `body`.
 */
export function crawlerView(
  body: Uint8Array,
  limit: number = ROBOTS_TXT_SIZE_LIMIT,
): { readonly bytes: Uint8Array; readonly truncated: boolean } {
  if (body.length <= limit) return { bytes: body, truncated: false };
  const next = body[limit];
  const end = next === 0x0a || next === 0x0d ? limit : cutEnd(body, limit);
  return { bytes: body.subarray(0, end), truncated: true };
}

/** True when `bytes` is empty or ends with a line ending (CR or LF). */
export function endsWithLineEnd(bytes: Uint8Array): boolean {
  const last = bytes[bytes.length - 1];
  return last === undefined || last === 0x0a || last === 0x0d;
}

/**
 * The end of the complete lines within the first `limit` bytes of `body`
 * (body.length > limit): one past the last CR or LF at index < limit. A CR at
 * limit - 1 whose LF lies past the limit still ends its line.
 */
export function cutEnd(body: Uint8Array, limit: number): number {
  for (let i = limit - 1; i >= 0; i--) {
    const b = body[i];
    if (b === 0x0a || b === 0x0d) return i + 1;
  }
  return 0;
}

/** 512000 → "512,000" (toLocaleString loads ICU data: measured 140 ms on first use). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A limit as messages state it: `512,000 bytes (500 KiB)`. */
export function describeLimit(limit: number): string {
  const kib = limit % 1024 === 0 ? ` (${groupDigits(limit / 1024)} KiB)` : "";
  return `${groupDigits(limit)} bytes${kib}`;
}
