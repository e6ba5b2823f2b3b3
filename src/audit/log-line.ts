/**
 * One access-log line read into the fields an audit needs: Combined and
 * Common Log Format (nginx and Apache defaults), scanned as bytes into the
 * offsets of its fields so that nothing is decoded unless needed, and JSON
 * Lines with field names given by options. Hand-written scanners, no RegExp
 * over the line, so a hostile line costs time linear in its length. A line
 * that is not one of these formats is refused (counted as malformed by the
 * caller).
 */

/** One request as the audit sees it. */
export interface LogRecord {
  /** The client address as logged (IPv4 or IPv6 text). */
  readonly ip: string;
  /** When the request started, in ms since the epoch; NaN when the line has no time. */
  readonly time: number;
  /** The request target: a path with its query (`/a?b`), or an absolute URL. */
  readonly url: string;
  /** The full User-Agent header, "" when the line has none. */
  readonly userAgent: string;
}

/** Field names of JSON Lines logs; each is a list of names tried in order. */
export interface LogFields {
  /** Names of the client address field. */
  readonly ip?: readonly string[];
  /** Names of the request time field. */
  readonly time?: readonly string[];
  /** Names of the request target field. */
  readonly url?: readonly string[];
  /** Names of the User-Agent field. */
  readonly userAgent?: readonly string[];
}

/** Names that fit Cloudflare Logpush's HTTP requests dataset and common nginx JSON templates. */
export const DEFAULT_LOG_FIELDS: Required<LogFields> = {
  ip: ["ClientIP", "remote_addr", "client_ip", "ip"],
  time: ["EdgeStartTimestamp", "time_iso8601", "time_local", "timestamp", "@timestamp", "time"],
  url: ["ClientRequestURI", "request_uri", "uri", "url", "request"],
  userAgent: ["ClientRequestUserAgent", "http_user_agent", "user_agent", "userAgent"],
};

/** A month's three letters as one integer (first letter highest) → its number from 0. */
const MONTHS = new Map(
  ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map(
    (m, i) => [(m.charCodeAt(0) << 16) | (m.charCodeAt(1) << 8) | m.charCodeAt(2), i],
  ),
);

/** The two decimal digits from `i` as a number, NaN when they are not digits. */
function twoDigits(b: Uint8Array, i: number): number {
  const hi = b[i]! - 48;
  const lo = b[i + 1]! - 48;
  return hi >= 0 && hi <= 9 && lo >= 0 && lo <= 9 ? hi * 10 + lo : Number.NaN;
}

/**
 * The CLF time of the 26 bytes from `at` (`10/Oct/2000:13:55:36 -0700`) in
 * ms, NaN when it is not one. `last` remembers the minute read last: a time
 * whose bytes up to the minute and whose zone are the same (the lines of a
 * busy log's minute) costs their comparison, four bytes at a time, and its
 * seconds.
 */
export function clfTimeAt(b: Uint8Array, at: number, last = new LastMinute()): number {
  const v = last.viewOf(b);
  const w0 = v.getInt32(at, true);
  const w1 = v.getInt32(at + 4, true);
  const w2 = v.getInt32(at + 8, true);
  const w3 = v.getInt32(at + 12, true);
  const zone = v.getInt32(at + 20, true);
  const zoneEnd = b[at + 16]! | (b[at + 24]! << 8) | (b[at + 25]! << 16);
  if (
    w0 !== last.w0 ||
    w1 !== last.w1 ||
    w2 !== last.w2 ||
    w3 !== last.w3 ||
    zone !== last.zone ||
    zoneEnd !== last.zoneEnd
  ) {
    last.w0 = w0;
    last.w1 = w1;
    last.w2 = w2;
    last.w3 = w3;
    last.zone = zone;
    last.zoneEnd = zoneEnd;
    last.ms = minuteAt(b, at, last);
  }
  return last.ms + twoDigits(b, at + 18) * 1000;
}

/** The ms of the time from `at` without its seconds, NaN when it is not a CLF time. */
function minuteAt(b: Uint8Array, at: number, last: LastMinute): number {
  if (b[at + 2] !== 0x2f || b[at + 6] !== 0x2f || b[at + 11] !== 0x3a || b[at + 20] !== 0x20) {
    return Number.NaN;
  }
  const sign = b[at + 21] === 0x2d ? -1 : b[at + 21] === 0x2b ? 1 : 0;
  if (sign === 0) return Number.NaN;
  const off = twoDigits(b, at + 22) * 60 + twoDigits(b, at + 24);
  const year = twoDigits(b, at + 7) * 100 + twoDigits(b, at + 9);
  const date = twoDigits(b, at);
  const letters = (b[at + 3]! << 16) | (b[at + 4]! << 8) | b[at + 5]!;
  // Exact below 2^53; NaN (never equal) when a digit is not one.
  const key = (year * 100 + date) * 0x1000000 + letters;
  if (key !== last.dayKey) {
    const month = MONTHS.get(letters);
    last.dayKey = key;
    last.dayMs = month === undefined ? Number.NaN : Date.UTC(year, month, date);
  }
  // Date.UTC(y, m, d, h, mi, s) is the day's ms plus the time's, exactly.
  const minutes = twoDigits(b, at + 12) * 60 + twoDigits(b, at + 15);
  return last.dayMs + minutes * 60_000 - sign * off * 60_000;
}

/**
 * The time clfTimeAt read last, to the minute: its first 16 bytes and its
 * zone as words (the minute's last digit and the zone's last two bytes in
 * one), their ms, and the date's Date.UTC (a call into the runtime), which
 * every line of a day shares.
 */
export class LastMinute {
  w0 = 0;
  w1 = 0;
  w2 = 0;
  w3 = 0;
  zone = 0;
  zoneEnd = -1;
  ms = Number.NaN;
  dayKey = Number.NaN;
  dayMs = Number.NaN;
  // The bytes read last and a view of them, for reading four bytes at a time.
  #bytes: Uint8Array = new Uint8Array(0);
  #view = new DataView(this.#bytes.buffer);

  viewOf(bytes: Uint8Array): DataView {
    if (bytes !== this.#bytes) {
      this.#bytes = bytes;
      this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return this.#view;
  }
}

/** `10/Oct/2000:13:55:36 -0700` (the CLF time) → ms since the epoch, NaN when it is not one. */
export function clfTime(s: string): number {
  if (s.length !== 26) return Number.NaN;
  const b = new Uint8Array(26);
  // Beyond ASCII is no character of the format: any such one reads as 0xff.
  for (let i = 0; i < 26; i++) b[i] = Math.min(s.charCodeAt(i), 0xff);
  return clfTimeAt(b, 0);
}

/**
 * A time as JSON logs write it: RFC 3339 text, CLF text, or a Unix time as a
 * number or digit string in s, ms, µs or ns (Logpush's `unixnano`), told
 * apart by magnitude (any date after 1973 in one unit is beyond the next).
 */
export function jsonTime(v: unknown): number {
  if (typeof v === "string") {
    if (v.length > 0 && v.length <= 20 && Number.isFinite(Number(v))) return jsonTime(Number(v));
    const t = clfTime(v);
    return Number.isNaN(t) ? Date.parse(v) : t;
  }
  if (typeof v !== "number" || !Number.isFinite(v)) return Number.NaN;
  if (v > 1e17) return v / 1e6;
  if (v > 1e14) return v / 1e3;
  if (v > 1e11) return v;
  return v * 1000;
}

/** `GET /a?b HTTP/1.1` → `/a?b`; a request line of one word (`/a`) is its own target. */
function requestTarget(request: string): string {
  const a = request.indexOf(" ");
  if (a < 0) return request;
  const b = request.indexOf(" ", a + 1);
  return b < 0 ? request.slice(a + 1) : request.slice(a + 1, b);
}

/** Where the fields of one Combined or Common Log Format line lie: filled by scanClfLine. */
export class ClfFields {
  /** The client address is the line's bytes from its start to here. */
  ipEnd = 0;
  /** The time of the line read last, to the minute. */
  readonly minute = new LastMinute();
  /** When the request started, ms since the epoch. */
  time = Number.NaN;
  /** The request target's bytes. */
  urlStart = 0;
  urlEnd = 0;
  /** The opening quote of the User-Agent field (read with closingQuote), -1 when the line has none. */
  uaOpen = -1;
}

/** The closing quote of the `"…"` opening at `i` (backslash escapes skipped), or -1. */
export function closingQuote(b: Uint8Array, i: number, end: number): number {
  if (i >= end || b[i] !== 0x22) return -1;
  for (let j = i + 1; j < end; j++) {
    const c = b[j]!;
    if (c === 0x5c) j++;
    else if (c === 0x22) return j;
  }
  return -1;
}

/** The first space of bytes [from, end), or end. */
function spaceFrom(b: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && b[i] !== 0x20) i++;
  return i;
}

/**
 * Reads bytes [start, end) as a Combined or Common Log Format line into
 * `out`; false when it is not one. `1.2.3.4 - - [time] "GET /a HTTP/1.1"
 * 200 5 "referer" "agent"`: the target is the request's second word (its
 * only one when it has one), the User-Agent the quoted field after the
 * referer (`-` for none); a Common line (no referer) has none. The caller
 * finds the User-Agent's closing quote (closingQuote; the line is no record
 * without one): LogReader first compares the field with those seen before.
 */
export function scanClfLine(b: Uint8Array, start: number, end: number, out: ClfFields): boolean {
  const sp = spaceFrom(b, start, end);
  if (sp === start || sp === end) return false;
  out.ipEnd = sp;
  let open = sp;
  while (open < end && b[open] !== 0x5b) open++;
  // The time is the 26 bytes before the first `]`; clfTimeAt checks each
  // byte but the two between hours, minutes and seconds, so a `]` there
  // (which would end the time early) is refused here.
  const close = open + 27;
  if (close >= end || b[close] !== 0x5d || b[open + 15] === 0x5d || b[open + 18] === 0x5d) {
    return false;
  }
  out.time = clfTimeAt(b, open + 1, out.minute);
  if (Number.isNaN(out.time) || close + 1 >= end || b[close + 1] !== 0x20) return false;
  const req = close + 2;
  const reqEnd = closingQuote(b, req, end);
  if (reqEnd < 0) return false;
  const a = spaceFrom(b, req + 1, reqEnd);
  out.urlStart = a === reqEnd ? req + 1 : a + 1;
  out.urlEnd = a === reqEnd ? reqEnd : spaceFrom(b, a + 1, reqEnd);
  const urlLen = out.urlEnd - out.urlStart;
  if (urlLen === 0 || (urlLen === 1 && b[out.urlStart] === 0x2d)) return false;
  out.uaOpen = -1;
  // Status and size, then (Combined) the referer and the User-Agent.
  let i = reqEnd + 1;
  for (let field = 0; field < 2; field++) {
    if (i >= end || b[i] !== 0x20) return field === 1;
    i = spaceFrom(b, i + 1, end);
  }
  if (i >= end) return true;
  const referer = closingQuote(b, i + 1, end);
  if (referer < 0 || referer + 1 >= end || b[referer + 1] !== 0x20) return false;
  out.uaOpen = referer + 2;
  return out.uaOpen < end && b[out.uaOpen] === 0x22;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function field(obj: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) {
    const v = obj[n];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A JSON Lines record, or null. */
export function readJsonLine(line: string, fields: Required<LogFields>): LogRecord | null {
  // An object's text ends with `}` and JSON whitespace: any other line is
  // refused before JSON.parse, whose errors are slow to make.
  let last = line.length - 1;
  while (last >= 0 && isJsonSpace(line.charCodeAt(last))) last--;
  if (line.charCodeAt(last) !== 0x7d) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return null;
  const o = obj as Record<string, unknown>;
  const ip = field(o, fields.ip);
  const rawUrl = field(o, fields.url);
  const ua = field(o, fields.userAgent);
  if (typeof ip !== "string" || typeof rawUrl !== "string" || rawUrl === "") return null;
  const url = rawUrl.includes(" ") ? requestTarget(rawUrl) : rawUrl;
  return {
    ip,
    time: jsonTime(field(o, fields.time)),
    url,
    userAgent: typeof ua === "string" && ua !== "-" ? ua : "",
  };
}

/** The log formats read: `auto` (a line starting with `{` is JSON), Combined/Common, JSON Lines. */
export type LogFormat = "auto" | "clf" | "json";
