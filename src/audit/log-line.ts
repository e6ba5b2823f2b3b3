/**
 * One access-log line read into the fields an audit needs: Combined and
 * Common Log Format (nginx and Apache defaults) and JSON Lines with field
 * names given by options. Hand-written scanners, no RegExp over the line, so
 * a hostile line costs time linear in its length. A line that is not one of
 * these formats reads as null (counted as malformed by the caller).
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

const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

function digits(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    v = v * 10 + c;
  }
  return v;
}

/** `10/Oct/2000:13:55:36 -0700` (the CLF time) → ms since the epoch, NaN when it is not one. */
export function clfTime(s: string): number {
  if (s.length !== 26 || s[2] !== "/" || s[6] !== "/" || s[11] !== ":" || s[20] !== " ") {
    return Number.NaN;
  }
  const month = MONTHS[s.slice(3, 6)];
  if (month === undefined) return Number.NaN;
  const day = digits(s, 0, 2);
  const year = digits(s, 7, 4);
  const h = digits(s, 12, 2);
  const m = digits(s, 15, 2);
  const sec = digits(s, 18, 2);
  const sign = s[21] === "-" ? -1 : s[21] === "+" ? 1 : 0;
  const off = digits(s, 22, 2) * 60 + digits(s, 24, 2);
  if (sign === 0) return Number.NaN;
  return Date.UTC(year, month, day, h, m, sec) - sign * off * 60_000;
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

/** The next `"…"` of `line` from `i` (at the opening quote); backslash escapes skipped. */
function quoted(line: string, i: number): { text: string; end: number } | null {
  if (line.charCodeAt(i) !== 0x22) return null;
  for (let j = i + 1; j < line.length; j++) {
    const c = line.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return { text: line.slice(i + 1, j), end: j + 1 };
  }
  return null;
}

/** `GET /a?b HTTP/1.1` → `/a?b`; a request line of one word (`/a`) is its own target. */
function requestTarget(request: string): string {
  const a = request.indexOf(" ");
  if (a < 0) return request;
  const b = request.indexOf(" ", a + 1);
  return b < 0 ? request.slice(a + 1) : request.slice(a + 1, b);
}

/** A Combined or Common Log Format line, or null. */
export function readClfLine(line: string): LogRecord | null {
  const sp = line.indexOf(" ");
  if (sp <= 0) return null;
  const ip = line.slice(0, sp);
  const open = line.indexOf("[", sp);
  if (open < 0) return null;
  const close = line.indexOf("]", open);
  if (close < 0) return null;
  const time = clfTime(line.slice(open + 1, close));
  if (Number.isNaN(time) || line.charCodeAt(close + 1) !== 0x20) return null;
  const req = quoted(line, close + 2);
  if (req === null) return null;
  const url = requestTarget(req.text);
  if (url === "" || url === "-") return null;
  // Status and size, then (Combined) the referer and the User-Agent.
  let i = req.end;
  for (let field = 0; field < 2; field++) {
    if (line.charCodeAt(i) !== 0x20) return field === 0 ? null : { ip, time, url, userAgent: "" };
    const next = line.indexOf(" ", i + 1);
    i = next < 0 ? line.length : next;
  }
  if (i >= line.length) return { ip, time, url, userAgent: "" };
  const referer = quoted(line, i + 1);
  if (referer === null) return null;
  const ua = quoted(line, referer.end + 1);
  if (ua === null || line.charCodeAt(referer.end) !== 0x20) return null;
  return { ip, time, url, userAgent: ua.text === "-" ? "" : ua.text };
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

/** The log formats `readLogLine` takes. */
export type LogFormat = "auto" | "clf" | "json";

/** One line of any supported format (`auto`: a line starting with `{` is JSON). */
export function readLogLine(
  line: string,
  format: LogFormat,
  fields: Required<LogFields>,
): LogRecord | null {
  if (format === "json" || (format === "auto" && line.charCodeAt(0) === 0x7b)) {
    return readJsonLine(line, fields);
  }
  return readClfLine(line);
}
