/**
 * `GET /api/fetch?url=…` for `robots serve`: fetches the robots.txt of the
 * URL's origin with the client's own fetch (docs/protocol.md#access-method: status, redirects,
 * 500 KiB limit, timeouts) and answers JSON the page shows (src/web/
 * fetch-info.ts). A page on the user's machine must not become a way into
 * their network, so only public addresses are fetched unless `robots serve`
 * was started with --allow-private: IP-literal hosts are checked before the
 * request, names when they resolve (every hop, redirects included), so a
 * name that resolves to a private address is refused at connect time. A
 * non-public origin is refused (403); a redirect into non-public space is
 * what a crawler gets for it: unreachable, everything disallowed
 * (docs/protocol.md#redirects).
 */
import { BlockList, isIP, type LookupFunction } from "node:net";
import { RobotsError } from "../errors.js";
import { type AddressClassifier, RedirectGuard } from "../fetch/address-class.js";
import { type FetchResult, fetchRobotsTxtUnder } from "../fetch/fetch-robots-txt.js";
import { createNodeTransport } from "../fetch/node-transport.js";
import { parseHttpUrl } from "../fetch/origin.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { serverErrorOutlook } from "./timeline-text.js";

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

/**
 * robots serve's own rule, named in its refusals. A redirect from a public
 * address into non-public space is refused with --allow-private too, as a
 * crawler with default options refuses it: the flag does not lift that.
 */
const SERVE_RULE = {
  origin: "robots serve fetches only public addresses unless started with --allow-private",
  redirect: "robots serve fetches only public addresses",
} as const;

export interface FetchApiOptions {
  readonly allowPrivate: boolean;
  readonly userAgent: string;
  /**
   * Which addresses are public. Default: isPublicAddress, and with
   * allowPrivate the library's classifyAddress for the redirect rule.
   * Tests on loopback call one loopback address public.
   */
  readonly classifyAddress?: AddressClassifier;
  /** The transport's DNS lookup (tests map names to loopback addresses). */
  readonly lookup?: LookupFunction;
}

export interface FetchApiReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Fetches running at once; more are answered 429 (a page, not a crawler). */
const MAX_IN_FLIGHT = 8;

/**
 * The handler for one `/api/fetch` request, given its `url` and `profile`
 * parameters: the profile reads the line the size limit cuts
 * (docs/protocol.md#size-limit); absent or unknown, it is `google`.
 */
export function createFetchApi(
  options: FetchApiOptions,
): (url: string | null, profile?: string | null) => Promise<FetchApiReply> {
  const transport = createNodeTransport(
    options.lookup === undefined ? {} : { lookup: options.lookup },
  );
  const classify: AddressClassifier =
    options.classifyAddress ?? ((a) => (isPublicAddress(a) ? "public" : "private"));
  // One guard per fetch. Without --allow-private every hop must be public,
  // checked on IP literals before the request and on the addresses a name
  // resolves to before connecting: a refused redirect is then the outcome
  // a crawler gets (unreachable, docs/protocol.md#redirects), whether its
  // target is an IP literal or a name.
  const guard = (): RedirectGuard =>
    options.allowPrivate
      ? new RedirectGuard(
          options.classifyAddress === undefined ? {} : { classifyAddress: options.classifyAddress },
        )
      : new RedirectGuard({
          classifyAddress: classify,
          publicOnly: true,
          publicOnlyRule: SERVE_RULE,
        });
  let inFlight = 0;
  return async (url, profile) => {
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
    if (inFlight >= MAX_IN_FLIGHT) {
      return {
        status: 429,
        body: { kind: "error", message: "too many fetches at once; try again" },
      };
    }
    inFlight++;
    try {
      const result = await fetchRobotsTxtUnder(
        parsed,
        {
          userAgent: options.userAgent,
          transport,
          profile: isProfile(profile) ? profile : "google",
        },
        guard(),
      );
      return answerOf(result, isProfile(profile) ? profile : "google");
    } finally {
      inFlight--;
    }
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Lenient = new TextDecoder("utf-8");

function answerOf(r: FetchResult, profile: Profile): FetchApiReply {
  const common = {
    robotsUrl: r.robotsUrl,
    finalUrl: r.finalUrl,
    status: r.status,
    redirects: r.redirects,
    contentType: r.contentType,
  };
  if (r.kind !== "ok") {
    if (r.kind === "unreachable" && r.code === "ERR_ADDRESS_REFUSED" && r.redirects.length === 0) {
      // The origin itself is not public: nothing was asked of the site, so
      // there is no outcome to show, only this server's refusal.
      return { status: 403, body: { kind: "refused", ...common, message: r.message } };
    }
    // A server error: what applies now and next (the tester's fetch is a
    // single one, so the first failure is now and no earlier copy is known).
    const notes = r.kind === "unreachable" ? [serverErrorOutlook(profile, { hasCopy: null })] : [];
    return {
      status: 200,
      body: { ...common, kind: r.kind, reason: r.reason, message: r.message, notes },
    };
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
