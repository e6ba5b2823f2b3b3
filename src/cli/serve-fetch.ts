/**
 * `GET /api/fetch?url=…` for `robots serve`: fetches the robots.txt of the
 * URL's origin with the client's own fetch (docs/protocol.md#access-method: status, redirects,
 * 500 KiB limit, timeouts) and answers JSON the page shows (src/web/
 * fetch-info.ts). A page on the user's machine must not become a way into
 * their network, so only public addresses are fetched unless `robots serve`
 * was started with --allow-private: IP-literal hosts are checked before the
 * request, names when they resolve (every hop, redirects included), so a
 * name that resolves to a private address is refused at connect time.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { RobotsError } from "../errors.js";
import { type FetchResult, fetchRobotsTxt } from "../fetch/fetch-robots-txt.js";
import { createNodeTransport } from "../fetch/node-transport.js";
import { parseHttpUrl } from "../fetch/origin.js";
import type { Transport } from "../fetch/transport.js";

/** Addresses that are not on the public internet (IANA special-purpose registries). */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and IPv4-compatible
  ["::ffff:0:0", 96], // IPv4-mapped: refused whole rather than decoded
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv6");
}

/** Is `address` (an IP literal) a public internet address? Anything else is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

const NOT_PUBLIC_CODE = "ENOTPUBLIC";

function notPublic(host: string, address: string): NodeJS.ErrnoException {
  const why = host === address ? address : `${host} resolves to ${address}, which`;
  const err: NodeJS.ErrnoException = new Error(
    `${why} is not a public address: robots serve fetches only public addresses unless started with --allow-private`,
  );
  err.code = NOT_PUBLIC_CODE;
  return err;
}

function hostAddress(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** A transport that connects to public addresses only (every hop is a new request). */
function publicOnlyTransport(): Transport {
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) {
        callback(err, "", 0);
        return;
      }
      const bad = addresses.find((a) => !isPublicAddress(a.address));
      if (bad !== undefined || addresses.length === 0) {
        callback(notPublic(hostname, bad?.address ?? "no address"), "", 0);
      } else if (options.all === true) {
        callback(null, addresses);
      } else {
        callback(null, addresses[0]!.address, addresses[0]!.family);
      }
    });
  };
  const inner = createNodeTransport({ lookup });
  return (request) => {
    // Node does not call `lookup` for IP-literal hosts: check those here.
    const host = hostAddress(request.url);
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      return Promise.reject(notPublic(host, host));
    }
    return inner(request);
  };
}

export interface FetchApiOptions {
  readonly allowPrivate: boolean;
  readonly userAgent: string;
}

export interface FetchApiReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Fetches running at once; more are answered 429 (a page, not a crawler). */
const MAX_IN_FLIGHT = 8;

/** The handler for one `/api/fetch` request, given its `url` parameter. */
export function createFetchApi(
  options: FetchApiOptions,
): (url: string | null) => Promise<FetchApiReply> {
  const transport = options.allowPrivate ? createNodeTransport() : publicOnlyTransport();
  let inFlight = 0;
  return async (url) => {
    if (url === null || url.trim() === "") {
      return {
        status: 400,
        body: {
          kind: "error",
          message: "give the site's URL: /api/fetch?url=https://example.com/",
        },
      };
    }
    let parsed: URL;
    try {
      parsed = parseHttpUrl(url.trim());
    } catch (err) {
      const message = err instanceof RobotsError ? err.message : "not a URL";
      return { status: 400, body: { kind: "error", message } };
    }
    const host = hostAddress(parsed);
    if (!options.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      return { status: 403, body: { kind: "refused", message: notPublic(host, host).message } };
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      return {
        status: 429,
        body: { kind: "error", message: "too many fetches at once; try again" },
      };
    }
    inFlight++;
    try {
      const result = await fetchRobotsTxt(parsed, { userAgent: options.userAgent, transport });
      return answerOf(result);
    } finally {
      inFlight--;
    }
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Lenient = new TextDecoder("utf-8");

function answerOf(r: FetchResult): FetchApiReply {
  const common = {
    robotsUrl: r.robotsUrl,
    finalUrl: r.finalUrl,
    status: r.status,
    redirects: r.redirects,
    contentType: r.contentType,
  };
  if (r.kind !== "ok") {
    if (r.kind === "unreachable" && r.code === NOT_PUBLIC_CODE) {
      return { status: 403, body: { kind: "refused", ...common, message: r.message } };
    }
    return { status: 200, body: { ...common, kind: r.kind, reason: r.reason, message: r.message } };
  }
  const notes: string[] = [];
  let text: string;
  try {
    text = utf8.decode(r.body);
  } catch {
    text = utf8Lenient.decode(r.body);
    notes.push(
      "The body is not valid UTF-8: its invalid bytes show here as U+FFFD, so a pattern holding them may match differently than for a crawler (robots fetch and robots check read the raw bytes).",
    );
  }
  if (r.body[0] === 0xef && r.body[1] === 0xbb && r.body[2] === 0xbf) {
    notes.push("The body starts with a UTF-8 byte order mark, which parsers skip.");
  }
  if (r.contentType !== null && !/^text\/plain\b/i.test(r.contentType)) {
    notes.push(`Served as ${r.contentType}, not text/plain.`);
  }
  return {
    status: 200,
    body: {
      ...common,
      kind: "ok",
      bytes: r.body.length,
      wireBytes: r.wireBytes,
      truncated: r.truncated,
      encoding: r.encoding,
      notes,
      text,
    },
  };
}
