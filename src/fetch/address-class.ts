/**
 * Which addresses a redirect from a public address may not lead to
 * (docs/protocol.md#redirects): loopback, private, link-local, unique-local and
 * the other non-public ranges, in IPv4, IPv6 and IPv4-mapped IPv6 forms. A
 * crawler that follows such a redirect lets any site make it send requests
 * into the crawler's own network (169.254.169.254 is the cloud metadata
 * service). Pure, no `node:` imports; the client takes its classifier as an
 * option so tests on loopback can call one loopback address public.
 */

export type AddressClass = "public" | "private";

/** Classifies one IP address (IPv4 dotted quad or IPv6, without brackets). */
export type AddressClassifier = (address: string) => AddressClass;

/** The default classifier. Anything that is not a parseable IP address is private. */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseIpv4(address);
  if (v4 !== null) return isPrivateV4(v4) ? "private" : "public";
  const v6 = parseIpv6(address);
  if (v6 === null) return "private";
  return isPrivateV6(v6) ? "private" : "public";
}

/**
 * The host without its trailing dots, lowercased: a fully qualified
 * `localhost.` or `127.0.0.1..` names the same host as `localhost` and
 * `127.0.0.1`, which the WHATWG URL parser keeps apart (it drops one
 * trailing dot of an IPv4 host, no more, and none of a name).
 */
function bareHost(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 0x2e) end--;
  return hostname.slice(0, end).toLowerCase();
}

/**
 * The address of an IP-literal host name (`127.0.0.1`, `[::1]`), or null for
 * a name. Trailing dots do not make an address a name: `127.0.0.1..` and
 * `0x7f.1..` are 127.0.0.1, read as the URL parser reads IPv4 hosts.
 */
export function ipLiteral(hostname: string): string | null {
  const host = bareHost(hostname);
  if (host.startsWith("[") && host.endsWith("]")) return host.slice(1, -1);
  if (parseIpv4(host) !== null) return host;
  // Only what the URL parser left alone for the extra dots is read again.
  if (host.length === hostname.length || !/^[0-9a-fx.]+$/.test(host)) return null;
  try {
    const again = new URL(`http://${host}/`).hostname;
    return parseIpv4(again) === null ? null : again;
  } catch {
    return null;
  }
}

/** A name that always means this machine (RFC 6761 `localhost` and `*.localhost`), however spelled. */
export function isLocalhostName(hostname: string): boolean {
  const host = bareHost(hostname);
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * Whether `hostname` is non-public by its spelling alone, before any DNS:
 * `address` for an IP literal `classify` does not call public, `localhost`
 * for a name that always means this machine, else null (other names are
 * judged by the address they resolve to). The one rule behind the client's
 * refusePrivateOrigins and every public-only hop (RedirectGuard).
 */
export function nonPublicHost(
  hostname: string,
  classify: AddressClassifier,
): "address" | "localhost" | null {
  const literal = ipLiteral(hostname);
  if (literal !== null) return classify(literal) === "public" ? null : "address";
  return isLocalhostName(hostname) ? "localhost" : null;
}

function parseIpv4(s: string): number | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let v = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = v * 256 + n;
  }
  return v;
}

function inV4(v: number, base: string, bits: number): boolean {
  const b = parseIpv4(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(v / size) === Math.floor(b / size);
}

const PRIVATE_V4: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function isPrivateV4(v: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => inV4(v, base, bits));
}

/** Eight 16-bit groups, or null. */
function parseIpv6(s: string): number[] | null {
  let text = s;
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.includes(".", lastColon)) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    // "::ffff:1.2.3.4" → "::ffff"; "::1.2.3.4" keeps its "::".
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const group = (h: string): number[] | null => {
    if (h === "") return [];
    const out: number[] = [];
    for (const g of h.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if (head === null || rest === null) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

function isPrivateV6(g: number[]): boolean {
  const [a, b, c, d, e, f, h, i] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return true; // ::
  if (zeroTo(7) && i === 1) return true; // ::1
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
  const nat64 = a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0;
  if ((zeroTo(5) && f === 0xffff) || zeroTo(6) || nat64) {
    return isPrivateV4(h * 65536 + i);
  }
  if (a === 0x2002) return isPrivateV4(b * 65536 + c); // 6to4 embeds an IPv4 address
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return true; // site-local (deprecated) fec0::/10
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  return false;
}

/** What a guard's refusals under `publicOnly` name as the reason, for an origin and for a redirect. */
export interface PublicOnlyRule {
  readonly origin: string;
  readonly redirect: string;
}

const REFUSE_PRIVATE_ORIGINS: PublicOnlyRule = {
  origin: "refusePrivateOrigins",
  redirect: "refusePrivateOrigins",
};

/**
 * The redirect rule on addresses (docs/protocol.md#redirects) across the
 * hops of one fetch: once the first answer came from a public address,
 * every later hop must stay public. One per fetch; robots.txt fetches and
 * page fetches (src/page-rules-io) both use it.
 *
 * Its refusals say what would let the hop through, and only that: in the
 * default mode allowPrivateRedirects; under `publicOnly` nothing but lifting
 * that rule (allowPrivateRedirects does not), so they name the rule instead.
 */
export class RedirectGuard {
  readonly #classify: AddressClassifier;
  readonly #allowPrivate: boolean;
  /** `publicOnly`: the origin itself must be public too (the client's refusePrivateOrigins). */
  readonly #originToo: boolean;
  /** What refuses non-public addresses under `publicOnly`, named in its refusals. */
  readonly #rule: PublicOnlyRule;
  #hops = 0;
  /** Set after the first answer from a public address, or from the start with `publicOnly`. */
  #publicOnly: ((address: string) => boolean) | undefined;

  constructor(options: {
    classifyAddress?: AddressClassifier;
    allowPrivateRedirects?: boolean;
    publicOnly?: boolean;
    /** Named in refusals under `publicOnly`. Default: refusePrivateOrigins. */
    publicOnlyRule?: PublicOnlyRule;
    /**
     * This fetch continues a redirect from a public address (a page that
     * redirects to another origin, whose robots.txt is fetched next): its
     * first hop is a redirect's target, held to public addresses like any
     * later one, and refused as a redirect.
     */
    continuesRedirect?: boolean;
  }) {
    const classify = options.classifyAddress ?? classifyAddress;
    this.#classify = classify;
    this.#allowPrivate = options.allowPrivateRedirects === true;
    this.#originToo = options.publicOnly === true;
    this.#rule = options.publicOnlyRule ?? REFUSE_PRIVATE_ORIGINS;
    if (this.#originToo || options.continuesRedirect === true) {
      this.#publicOnly = (a) => classify(a) === "public";
    }
    if (options.continuesRedirect === true) this.#hops = 1;
  }

  /**
   * True while the origin's own request is the next hop and it must be
   * public (`publicOnly`): a refusal then means the origin was not
   * connected to at all, not a redirect refused.
   */
  get guardsOrigin(): boolean {
    return this.#originToo && this.#hops === 0;
  }

  /** For TransportRequest.allowAddress: the check on the address the next hop connects to. */
  get allowAddress(): ((address: string) => boolean) | undefined {
    return this.#publicOnly;
  }

  /**
   * A refusal when the next hop's URL names, by its spelling, a host it may
   * not reach (a non-public IP literal, a localhost name), else null.
   */
  beforeHop(url: URL): string | null {
    if (this.#publicOnly === undefined) return null;
    const host = url.hostname;
    const why = nonPublicHost(host, this.#classify);
    if (why === null) return null;
    return this.#refusal(why === "address" ? ipLiteral(host)! : host);
  }

  /** A refusal when a transport rejected the hop's address (ERR_ADDRESS_REFUSED) under this rule, else null. */
  refusedByTransport(err: unknown): string | null {
    if ((err as { code?: unknown })?.code !== "ERR_ADDRESS_REFUSED") return null;
    if (this.#publicOnly === undefined) return null;
    const what = (err as Error).message;
    if (this.guardsOrigin) return `${what}: not connected (${this.#rule.origin})`;
    return `redirect from a public address refused: ${what} (${this.#lift()})`;
  }

  /**
   * After a hop answered from `address` (null when unknown): a refusal when
   * it may not be used, else null. The first answer arms the rule when it
   * came from a public address (an origin that is itself non-public may
   * redirect inside its network).
   */
  answered(address: string | null): string | null {
    if (this.#publicOnly !== undefined && address !== null && !this.#publicOnly(address)) {
      return this.#refusal(address);
    }
    const first = this.#hops++ === 0;
    if (
      first &&
      !this.#allowPrivate &&
      (address === null || this.#classify(address) === "public")
    ) {
      const classify = this.#classify;
      this.#publicOnly = (a) => classify(a) === "public";
    }
    return null;
  }

  /** What would let a refused redirect through: allowPrivateRedirects, unless `publicOnly` refuses it anyway. */
  #lift(): string {
    return this.#originToo ? this.#rule.redirect : "allowPrivateRedirects enables it";
  }

  #refusal(address: string): string {
    return this.guardsOrigin
      ? `the origin is the non-public address ${address}: not connected (${this.#rule.origin})`
      : `redirect from a public address to the non-public address ${address} refused (${this.#lift()})`;
  }
}
