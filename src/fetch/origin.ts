/**
 * The scope of a robots.txt (docs/protocol.md#scope): one file per origin, that is
 * scheme + host + port. The WHATWG URL parser does the normalisation the spec
 * asks for, so we rely on it instead of hand-written host handling: it
 * lowercases host names, turns internationalised names into punycode (the
 * same result as `node:url` domainToASCII), drops `:80` for http and `:443`
 * for https, and canonicalises IPv4/IPv6 literals (`http://0x7f.1/` is
 * `http://127.0.0.1`). It is a global in every runtime, so this file has no
 * `node:` import.
 */
import { RobotsError } from "../errors.js";

/** Where the rules for a URL come from. */
export interface RobotsOrigin {
  /** `http:` or `https:`. */
  readonly scheme: "http:" | "https:";
  /** Host as the origin key has it: lowercase, punycode, IPv6 in brackets. */
  readonly hostname: string;
  /** The port to connect to (the default port when the URL names none). */
  readonly port: number;
  /** `scheme://host[:port]` with a default port omitted: the cache key. */
  readonly origin: string;
  /** `origin + "/robots.txt"`: the only place a robots.txt counts. */
  readonly robotsUrl: string;
}

const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * The origin whose robots.txt governs `url`. Throws a RobotsError with code
 * `invalid-url` for a string that is not an absolute URL with a host, and
 * `unsupported-scheme` for anything but http and https (docs/protocol.md#access-method: the
 * access method is defined for HTTP; a robots.txt never covers another scheme).
 */
export function parseOrigin(url: string | URL): RobotsOrigin {
  return originOf(parseHttpUrl(url));
}

/**
 * Parse and check a crawl URL: an absolute http(s) URL with a host. Throws a
 * RobotsError (`invalid-url` or `unsupported-scheme`) saying what to pass.
 */
export function parseHttpUrl(url: string | URL): URL {
  let parsed: URL;
  if (url instanceof URL) {
    parsed = url;
  } else {
    if (typeof url !== "string") {
      throw new RobotsError(
        "invalid-url",
        `The URL must be a string such as "https://example.com/page", got ${url === null ? "null" : typeof url}`,
      );
    }
    const scheme = SCHEME_RE.exec(url)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== "http" && scheme !== "https" && url.includes("://")) {
      throw unsupportedScheme(`${scheme}:`, url);
    }
    try {
      parsed = new URL(url);
    } catch {
      throw new RobotsError(
        "invalid-url",
        `Invalid URL ${JSON.stringify(url)}: pass an absolute http:// or https:// URL such as "https://example.com/page"`,
      );
    }
  }
  const scheme = parsed.protocol;
  if (scheme !== "http:" && scheme !== "https:") throw unsupportedScheme(scheme, parsed.href);
  if (parsed.hostname === "") {
    throw new RobotsError(
      "invalid-url",
      `URL ${JSON.stringify(parsed.href)} has no host: pass an absolute URL such as "https://example.com/page"`,
    );
  }
  return parsed;
}

/** The origin of a URL already checked by parseHttpUrl(). */
export function originOf(parsed: URL): RobotsOrigin {
  const scheme = parsed.protocol === "https:" ? "https:" : "http:";
  const port = parsed.port === "" ? (scheme === "http:" ? 80 : 443) : Number(parsed.port);
  const origin = `${scheme}//${parsed.host}`;
  return {
    scheme,
    hostname: parsed.hostname,
    port,
    origin,
    robotsUrl: `${origin}/robots.txt`,
  };
}

function unsupportedScheme(scheme: string, url: string): RobotsError {
  return new RobotsError(
    "unsupported-scheme",
    `Unsupported scheme "${scheme}" in ${JSON.stringify(url)}: robots.txt is fetched over http and https only; pass an http:// or https:// URL`,
  );
}

/**
 * True when `url` names the robots.txt file itself, which a crawler may
 * always fetch (RFC 9309 §2.2.2 and docs/protocol.md#matching "/robots.txt itself"). Only
 * the exact root path counts; `/robots.txt?x` is an ordinary URL.
 */
export function isRobotsTxtUrl(url: URL): boolean {
  return url.pathname === "/robots.txt" && url.search === "";
}
