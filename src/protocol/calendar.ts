/**
 * A calendar date and time from its parts, checked: the one home of that
 * arithmetic for the date parsers (HTTP headers in src/cache/lifetime.ts,
 * `unavailable_after` in src/page-rules/http-date.ts), which differ only in
 * the forms they read.
 */

/** English month abbreviations, lowercase, to their 0-based index. */
export const MONTHS: Readonly<Record<string, number>> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** A two-digit year (RFC 850 dates): 70–99 are 19xx, the rest 20xx (RFC 6265 §5.1.1's rule). */
export function fullYear(twoDigits: number): number {
  return twoDigits + (twoDigits >= 70 ? 1900 : 2000);
}

/**
 * Milliseconds since the epoch of the given UTC time less `offset` minutes
 * (the zone's offset east of UTC), or undefined when a part is out of range
 * or the day does not exist in that month (31 Feb). A leap second reads as
 * the last second of its minute.
 */
export function utcMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  offset = 0,
): number | undefined {
  if (month < 0 || month > 11 || day < 1 || hour > 23 || minute > 59 || second > 60) {
    return undefined;
  }
  const ms = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // Date.UTC rolls 31 Feb over into March: the day no longer matches.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return ms - offset * 60_000;
}
