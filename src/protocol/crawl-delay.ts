/**
 * What a `Crawl-delay` value says (docs/protocol.md#other-directives).
 * Neither RFC 9309 nor Google defines the line; crawlers that honour it
 * read a number of seconds. The client takes the number a value starts
 * with (`10a` waits 10 s): a crawler that waits is never less polite than
 * one that skips the line. The linter flags any value that is not exactly
 * a number, since other crawlers may skip it.
 */

/** A value every crawler that honours the line reads alike: digits, optionally a fraction. */
export function isPlainDelay(value: string): boolean {
  return /^[0-9]+(?:\.[0-9]+)?$/.test(value.trim());
}

/** The seconds the client reads from a value: the number it starts with, or undefined. */
export function delaySeconds(value: string): number | undefined {
  const m = /^\+?([0-9]+(?:\.[0-9]*)?|\.[0-9]+)/.exec(value.trim());
  if (m === null) return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : undefined;
}
