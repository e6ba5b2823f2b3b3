/**
 * Dates in `unavailable_after` (Google: "a widely adopted format including,
 * but not limited to RFC 822, RFC 850, and ISO 8601"). Parsed here rather
 * than with Date.parse, whose accepted forms differ between engines: the
 * same header must give the same answer in Node, browsers and workers.
 *
 * Accepted: `[Day,] 25 Jun 2010 15:00:00 PST` (RFC 822/1123, the seconds and
 * zone optional, 2- or 4-digit year, full month names too), `Friday,
 * 25-Jun-10 15:00:00 GMT` (RFC 850) and `2010-06-25[T15:00[:00[.000]]][Z|±hh[:mm]]`
 * (ISO 8601). No zone means UTC. Anything else is undefined.
 */
import { fullYear, MONTHS, utcMillis } from "../protocol/calendar.js";

/** RFC 822 §5.1 zones, in minutes east of UTC (military letters other than Z are ambiguous and refused). */
const ZONES: Readonly<Record<string, number>> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

// Every part is a fixed class followed by a different one, so matching is
// linear; the input is also capped at 80 characters before matching.
const RFC822 =
  /^(?:[a-z]{3,9},?[ \t]+)?(\d{1,2})[ \t-]+([a-z]{3})[a-z]*\.?[ \t-]+(\d{2}|\d{4})[ \t]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[ \t]*([a-z]{1,3}|[+-]\d{4}))?$/i;
const ISO8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?[ \t]*(z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function zoneOffset(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === "") return 0;
  const c = zone.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) {
    const digits = zone.slice(1).replace(":", "");
    const h = Number(digits.slice(0, 2));
    const m = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (h > 23 || m > 59) return undefined;
    return (c === 0x2d ? -1 : 1) * (h * 60 + m);
  }
  return ZONES[zone.toLowerCase()];
}

/** Milliseconds since the epoch, or undefined when `text` is not a date in an accepted form. */
export function parseHttpDate(text: string): number | undefined {
  const s = text.trim();
  if (s.length > 80) return undefined;
  const iso = ISO8601.exec(s);
  if (iso) {
    const offset = zoneOffset(iso[7]);
    if (offset === undefined) return undefined;
    return utcMillis(
      Number(iso[1]),
      Number(iso[2]) - 1,
      Number(iso[3]),
      Number(iso[4] ?? 0),
      Number(iso[5] ?? 0),
      Number(iso[6] ?? 0),
      offset,
    );
  }
  const r = RFC822.exec(s);
  if (r) {
    const month = MONTHS[r[2]!.toLowerCase()];
    const offset = zoneOffset(r[7]);
    if (month === undefined || offset === undefined) return undefined;
    const year = r[3]!.length === 2 ? fullYear(Number(r[3])) : Number(r[3]);
    return utcMillis(
      year,
      month,
      Number(r[1]),
      Number(r[4]),
      Number(r[5]),
      Number(r[6] ?? 0),
      offset,
    );
  }
  return undefined;
}

/** Does `text` start with a day name, as the first half of "Fri, 25 Jun 2010 …" cut at its comma? */
export function isDayName(text: string): boolean {
  const d = text.trim().toLowerCase();
  return /^(?:mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?$/.test(d);
}
