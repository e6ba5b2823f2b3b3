/**
 * What the linter suggests for values that are not what their author meant:
 * a pattern without a leading "/", a user-agent value that is a whole
 * User-Agent header or a name with digits, a relative sitemap. The rule for
 * every suggestion here: a fix never broadens what the file says. A rule that
 * never matched is fixed to the narrowest reading of what was written
 * (`wp-login.php` → `/wp-login.php`), or removed; never to `/`.
 */
import { CRAWLERS } from "../data/crawlers.js";
import { delaySeconds, isPlainDelay } from "../protocol/crawl-delay.js";
import { quoteLine } from "./line-edits.js";
import { escapeText, quote } from "./text.js";

/**
 * File extensions that also look like top-level domains (`wp-login.php`,
 * `404.html`, `feed.xml`): a value ending in one is a file, not a host.
 */
const FILE_EXTENSIONS = new Set(
  (
    "php html htm shtml xhtml asp aspx jsp cgi pl py rb sh js mjs css json xml rss atom txt csv " +
    "pdf doc docx xls xlsx ppt zip gz tgz tar rar jpg jpeg png gif svg webp ico bmp mp3 mp4 " +
    "avi mov webm woff woff2 ttf eot swf exe dmg md yml yaml ini log bak old tmp cfm do action"
  ).split(" "),
);

/**
 * Does `text` (a value without a leading "/") name a host, such as
 * `cdn.example.net/` or `www.example.com/private`? Labels of letters, digits
 * and "-", at least two, the last alphabetic and not a file extension; a
 * single dot is a host only when the first label is not all digits
 * (`404.html` is a file either way). Returns the host and the path after it.
 */
export function splitHost(text: string): { host: string; path: string } | null {
  const slash = text.indexOf("/");
  const host = slash < 0 ? text : text.slice(0, slash);
  const path = slash < 0 ? "" : text.slice(slash);
  const labels = host.split(".");
  if (labels.length < 2) return null;
  for (const l of labels) {
    if (l === "" || l.length > 63 || !/^[a-z0-9-]+$/i.test(l)) return null;
  }
  const tld = labels[labels.length - 1]!.toLowerCase();
  if (!/^[a-z]{2,24}$/.test(tld) || FILE_EXTENSIONS.has(tld)) return null;
  if (labels.length === 2 && /^[0-9]+$/.test(labels[0]!)) return null;
  return { host, path };
}

/**
 * The longest value a fix quotes as a whole line to write. A longer value
 * (or one with control characters, which a message shows escaped) is never
 * quoted cut short, which would be a different rule: the fix says what to
 * change instead.
 */
const MAX_QUOTED = 200;

/**
 * Can `value` (a linter snippet, escapeText: a backslash doubled, control
 * characters shown as `\xNN`; bytes that are not UTF-8 as U+FFFD) be quoted
 * in a fix as text to write, exactly? Not when it holds any escape.
 */
export function isQuotable(value: string): boolean {
  return value.length <= MAX_QUOTED && !/\\|\ufffd/.test(value);
}

/**
 * A finding's message and fix; `lines`, when the fix is one definite
 * change, are the lines to write in place of the line found (none: remove
 * it), as the fix quotes them.
 */
export interface Advice {
  readonly message: string;
  readonly fix: string;
  readonly lines?: readonly string[];
}

/** `lines` as an edit, unless the line's tail is not text to write back (undefined). */
function edit(tail: string | undefined, lines: readonly string[]): { lines?: readonly string[] } {
  return tail === undefined ? {} : { lines };
}

/**
 * What a fix adds when it makes an Allow line that never matched take
 * effect: from then on it allows what it matches over every Disallow rule
 * that is not longer (docs/protocol.md#precedence), so the file allows more.
 */
export function allowCaveat(name: string): string {
  if (name.toLowerCase() !== "allow") return "";
  return "; note that the fixed Allow line then takes effect and allows the paths it matches even where a Disallow rule of the same or shorter length blocks them today: check that you mean to allow them";
}

/**
 * What a fix adds when it brings back a User-agent line that crawlers do
 * not read today (hidden by a byte-order mark, misspelt beyond what Google
 * accepts): the crawlers it names then follow the rules below it instead
 * of the groups they follow now (docs/protocol.md#choosing-rules), which
 * can allow them more.
 */
export const AGENT_CAVEAT =
  "; note that the crawlers this User-agent line names then follow the rules below it instead of the groups they follow today, which may allow them more: check those rules first";

/**
 * Why a pattern without a leading "/" never matches, and what to write. A
 * URL or a host name (`https://cdn.example.net/x`, `cdn.example.net/`) is
 * removed, or cut to its path when it has one (the path on this site is
 * what the author can have meant); anything else gets a "/" in front, so
 * `wp-login.php` becomes `/wp-login.php`, never `/`. `written` is the whole
 * value; the message shows it shortened. An Allow fix says that it allows
 * more (allowCaveat).
 */
export function describeRelativePattern(written: string, name: string, tail?: string): Advice {
  const shown = quote(shorten(written, 60));
  const url = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/]*)(\/.*)?$/i.exec(written);
  const split = url !== null ? { host: url[1] ?? "", path: url[2] ?? "" } : splitHost(written);
  const allow = allowCaveat(name);
  if (split !== null) {
    const path = split.path;
    const remove = "remove the line: a robots.txt governs only the host it is served from";
    const pathOnly = isQuotable(path)
      ? `write the path only: ${quoteLine(`${name}: ${path}${tail ?? ""}`)}`
      : `keep only the path, from the "/" after ${split.host}`;
    const message = `${shown} names a host: a rule is matched against the path of a URL on this site, which always starts with "/", so it never matches`;
    if (path === "" || path === "/" || path === "/*" || path === "/*$") {
      return { message, fix: remove, lines: [] };
    }
    return {
      message,
      fix: `if ${split.host} is this site, ${pathOnly}${allow}; otherwise ${remove}`,
    };
  }
  const message = `${shown} does not start with "/" or "*": paths always start with "/", so this rule never matches`;
  const caveat = renderingCaveat(written, name) + allow;
  if (!isQuotable(written)) {
    return {
      message,
      fix: `put "/" in front of the value (from the site's root) or "/*" (in any folder)${caveat}`,
    };
  }
  const end = tail ?? "";
  if (written.startsWith("?") || written.startsWith(".")) {
    const line = `${name}: /*${written}${end}`;
    return {
      message,
      fix: `write ${quoteLine(line)} to match it anywhere${caveat}`,
      ...edit(tail, [line]),
    };
  }
  const line = `${name}: /${written}${end}`;
  return {
    message,
    fix: `write ${quoteLine(line)} (from the site's root) or ${quoteLine(`${name}: /*${written}${end}`)} (in any folder)${caveat}`,
    ...edit(tail, [line]),
  };
}

/** `text` cut to about `max` characters for a message. */
function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A caveat for a fix that makes a Disallow block scripts or style sheets
 * (`Disallow:.js$` → `/*.js$`): search engines fetch them to render pages,
 * so the fixed rule may cost more than the author meant.
 */
function renderingCaveat(written: string, name: string): string {
  if (name.toLowerCase() !== "disallow") return "";
  const m = /\.(m?js|css)\$?$/i.exec(written);
  if (m === null) return "";
  const what = m[1]!.toLowerCase() === "css" ? "style sheets" : "scripts";
  return `; note that this blocks every one of those ${what}, and search engines fetch ${what} to render pages: a page they cannot render may rank lower, so block them only if you mean to`;
}

/**
 * A name with case, spaces, "-" and "_" folded away: `ChatGPT User`,
 * `chatgpt-user` and `ChatGPT_User` are one key.
 */
function foldName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

/**
 * Known crawler names by folded name, for "which crawler did the author
 * mean": names of letters, digits, "-" and "_" (`MJ12bot`), which a line can
 * spell; not `ChatGPT Agent` or `MistralAI-User/1.0`, whose token is named.
 */
const KNOWN_NAMES = new Map(
  CRAWLERS.filter((c) => /^[A-Za-z0-9_-]+$/.test(c.name)).map((c) => [foldName(c.name), c.name]),
);

function operatorOf(name: string): string {
  const c = CRAWLERS.find((k) => k.name === name);
  return c === undefined || c.operator === "unknown" ? "" : ` (${c.operator})`;
}

/** `Name/1.2 +http://…` → `Name`: a product without its version and link. */
function withoutVersion(product: string): string {
  const slash = product.indexOf("/");
  return (slash < 0 ? product : product.slice(0, slash)).replace(/\s*\+?https?:.*$/i, "").trim();
}

/**
 * The names a user-agent value can stand for: the whole value without its
 * version, and for a whole User-Agent header (a product with a version and
 * a comment in parentheses) each product and each item of its comments
 * (`Mozilla/5.0 (compatible; GPTBot/1.0; +https://…)` → `Mozilla`,
 * `compatible`, `GPTBot`). Never single words of a name: `Screaming Frog
 * SEO Spider` and `Sogou Pic Spider/3.0 (+http://…)` stand for themselves,
 * not for `Spider`, and `Mediapartners (Googlebot)`, a name with a remark,
 * not for `Googlebot`.
 */
function namesIn(written: string): string[] {
  const out = [withoutVersion(written)];
  if (!/[;()]/.test(written) || !/^[^\s(]+\//.test(written.trim())) return out;
  let depth = 0;
  let buf = "";
  // Outside comments, a product is a word with a version; a word without
  // one starts a name of several words, whose last word is no product.
  let productsOnly = true;
  const flush = (inComment: boolean) => {
    if (inComment) {
      for (const p of buf.split(";")) if (p.trim() !== "") out.push(withoutVersion(p.trim()));
    } else {
      for (const p of buf.split(/\s+/)) {
        if (p === "") continue;
        if (!p.includes("/")) productsOnly = false;
        else if (productsOnly) out.push(withoutVersion(p));
      }
    }
    buf = "";
  };
  for (const ch of written) {
    if (ch === "(") {
      if (depth === 0) flush(false);
      depth++;
    } else if (ch === ")" && depth > 0) {
      depth--;
      if (depth === 0) flush(true);
    } else buf += ch;
  }
  flush(depth > 0);
  return out;
}

/**
 * The known crawler a user-agent value names: the value itself with case,
 * spaces, "-", "_" and a version folded away (`MJ12bot`, `ChatGPT User` →
 * ChatGPT-User), or a product or comment item of a whole User-Agent header
 * (`Mozilla/5.0 (compatible; GPTBot/1.0)` → GPTBot). Never a word inside a
 * longer name (`Screaming Frog SEO Spider` is not `Spider`). Undefined when
 * the value names no catalogue crawler.
 */
export function meantCrawler(written: string): string | undefined {
  for (const name of namesIn(written)) {
    const known = KNOWN_NAMES.get(foldName(name));
    if (known !== undefined) return known;
  }
  return undefined;
}

/**
 * The message and fix for a user-agent value read only in part: `written`
 * is the value, `token` what Google's parser reads (its leading letters,
 * "-" and "_"), `stop` the character that ended the token. Never suggests
 * the cut token as if it were intended: it names the token the line names
 * and, when it can tell, the crawler the author likely meant.
 */
export function describeCutAgent(
  written: string,
  token: string,
  stop: string,
  tail?: string,
): Advice & { severity: "warning" | "info" } {
  const quoted = quote(written);
  const reads = `${quoted} names the token ${quote(token)}: a user-agent name is only letters, "-" and "_"`;
  const meant = meantCrawler(written);
  if (stop === "/" && /^\/v?[0-9][0-9A-Za-z._-]*$/.test(written.slice(token.length))) {
    // "Googlebot/2.1", "Wget/1.6": only a version is dropped, and the name
    // is the crawler's, so every crawler reads the line as meant: info.
    const line = `User-agent: ${token}${tail ?? ""}`;
    return {
      severity: "info",
      message: `${reads}, so the version is ignored and the group applies to every version of ${token}`,
      fix: `write ${quoteLine(line)}`,
      ...edit(tail, [line]),
    };
  }
  if (/[0-9]/.test(stop) && meant !== undefined && meant.toLowerCase() === written.toLowerCase()) {
    // "MJ12bot": the crawler's documented name. Its own parser reads the
    // whole name; no spelling makes Google-style parsers read it.
    return {
      severity: "info",
      message: `${reads}, so parsers that follow Google read the token ${quote(token)}; the line means ${meant}${operatorOf(meant)}, whose own parser matches its full name`,
      fix: `keep ${quote(`User-agent: ${written}`)} for ${meant}: it is the crawler's documented name, and no spelling makes Google-style parsers read the digits`,
    };
  }
  const header = /[\s;()]/.test(written) && /\//.test(written);
  const what = header
    ? "it looks like a whole User-Agent header"
    : /\s/.test(stop)
      ? "only the first word counts"
      : `a crawler that calls itself ${quoted} is not matched by its full name`;
  // Renaming the group moves it: crawlers named `token` lose it, and the
  // crawler meant leaves the groups it follows today; either may gain.
  const message = `${reads}; ${what}`;
  if (meant !== undefined && meant !== token) {
    const line = `User-agent: ${meant}${tail ?? ""}`;
    return {
      severity: "warning",
      message,
      fix: `name the crawler by its product token: ${quoteLine(line)}; note that this moves the group: ${meant} then follows it instead of the groups it follows today, and crawlers named "${token}" no longer do, which may allow either of them more`,
      ...edit(tail, [line]),
    };
  }
  return {
    severity: "warning",
    message,
    fix: `name the crawler by its product token (letters, "-" and "_" only), as its documentation gives it; as written, the group applies to crawlers named "${token}"`,
  };
}

/**
 * What to write for a sitemap that is not an absolute http(s) URL. A value
 * that starts with a host (`www.example.com/sitemap.xml`) gets a scheme; a
 * path or a file name (`sitemap.xml`) gets the site's own address in front,
 * shown as example.com (never `https://sitemap.xml`).
 */
export function sitemapFix(
  written: string,
  tail?: string,
): { fix: string; lines?: readonly string[] } {
  const bare = written.replace(/^[a-z]+:\/*/i, "");
  if (written === "") {
    return { fix: 'write the full URL, e.g. "Sitemap: https://example.com/sitemap.xml"' };
  }
  if (!written.startsWith("/") && splitHost(bare) !== null && isQuotable(bare)) {
    const line = `Sitemap: https://${bare}${tail ?? ""}`;
    return { fix: `write the full URL: ${quoteLine(line)}`, ...edit(tail, [line]) };
  }
  const path = written.startsWith("/") ? written : `/${written}`;
  return {
    fix: `write the full URL on your site, e.g. ${quote(`Sitemap: https://example.com${path}`)} (with your own host)`,
  };
}

/**
 * A rule with a space or tab inside (`Disallow: /x y`): crawlers send a
 * space in a URL as %20, so the pattern never matches. Two paths on one line
 * (`/a /b`) want a line each; one path wants %20. `written` is the whole
 * value; the message shows it shortened. An Allow fix says that it allows
 * more (allowCaveat).
 */
export function describeSpacedPattern(written: string, name: string, tail?: string): Advice {
  const parts = written.split(/[ \t]+/);
  const message = `${quote(shorten(written, 60))} contains whitespace: crawlers send a space in a URL as %20, so this rule never matches`;
  const allow = allowCaveat(name);
  if (!isQuotable(written)) {
    return { message, fix: `write %20 for each space or tab in the value${allow}` };
  }
  // Two paths on one line get a line each, unless one is "/" alone: split,
  // `Disallow: / *reviews` would block the whole site.
  const end = tail ?? "";
  if (parts.length > 1 && parts.every((p) => p.startsWith("/") && p.length > 1)) {
    // The comment, if any, stays on the last line.
    const lines = parts.map((p, i) => `${name}: ${p}${i === parts.length - 1 ? end : ""}`);
    return {
      message,
      fix: `write one path per line: ${lines.map(quoteLine).join(", ")}${allow}`,
      ...edit(tail, lines),
    };
  }
  const encoded = `${name}: ${written.replace(/[ \t]/g, "%20")}${end}`;
  const joined = parts.join("");
  if (parts[0] === "/" && joined !== "/*" && joined !== "/*$") {
    return {
      message,
      fix: `write ${quoteLine(encoded)} for a real space, or ${quoteLine(`${name}: ${joined}${end}`)}${allow}`,
      ...edit(tail, [encoded]),
    };
  }
  return {
    message,
    fix: `write %20 for a space: ${quoteLine(encoded)}${allow}`,
    ...edit(tail, [encoded]),
  };
}

/**
 * Crawl-delay is a number of seconds (docs/protocol.md#other-directives).
 * Returns the finding for a value that is not exactly one, or undefined.
 * A value that starts with a number is read by some crawlers (this
 * toolkit's client among them) and skipped by others; say both.
 */
export function describeCrawlDelay(value: string, tail?: string): Advice | undefined {
  if (isPlainDelay(value)) return undefined;
  const fix = 'write a number of seconds, e.g. "Crawl-delay: 10"';
  if (value.trim() === "") return { message: "the Crawl-delay line has no value", fix };
  const seconds = delaySeconds(value);
  const quoted = quote(escapeText(value));
  if (seconds === undefined) {
    return {
      message: `${quoted} is not a number of seconds: crawlers that honour Crawl-delay ignore this line`,
      fix,
    };
  }
  return {
    message:
      `${quoted} is not a plain number of seconds: some crawlers that honour Crawl-delay ignore this line, ` +
      `others (this toolkit's client among them) wait ${seconds} s`,
    fix: `write a number of seconds: ${quoteLine(`Crawl-delay: ${seconds}${tail ?? ""}`)}`,
    ...edit(tail, [`Crawl-delay: ${seconds}${tail ?? ""}`]),
  };
}

/**
 * What a fix that brings back a line crawlers do not read today adds: a
 * User-agent line moves crawlers between groups, an Allow line allows more.
 */
export function restoredCaveat(key: string | undefined): string {
  if (key === "User-agent") return AGENT_CAVEAT;
  return key === "Allow" ? allowCaveat("allow") : "";
}

/**
 * Removing a NUL byte makes the rest of the line count: a Disallow rule
 * then matches only the longer path, so it blocks less; a User-agent line
 * may name another crawler.
 */
export function nulCaveat(kind: string): string {
  if (kind === "disallow") {
    return "; note that the rest of the line then counts, so this Disallow rule then blocks fewer paths than it does today: check that the whole line is what you mean";
  }
  if (kind === "user-agent") {
    return "; note that the rest of the line then counts, so this line may then name another crawler, which moves the group";
  }
  return "";
}

/**
 * A fix that makes a User-agent line name every crawler (`*`): the group's
 * rules then apply to all crawlers not named elsewhere, merged with any
 * other `*` group (docs/protocol.md#choosing-rules), Allow lines included.
 */
export const STAR_CAVEAT =
  " (its rules, Allow lines included, then apply to every crawler not named elsewhere, together with those of any other * group, which may allow them more)";
