/**
 * The seam between the access method and the network. fetchRobotsTxt() owns
 * everything docs/protocol.md#access-method decides (redirects, limits, timeouts, status
 * handling); a transport only performs ONE request and hands back the status,
 * the headers and the body as a stream. That keeps the rules testable and
 * lets other runtimes (or a test, or a proxy-aware crawler) plug in their own
 * client: createNodeTransport() is the default, createFetchTransport() adapts any
 * WHATWG `fetch`.
 */
import { planDecoding } from "./content-encoding.js";

/** One GET a transport performs. */
export interface TransportRequest {
  /** The absolute URL to GET. */
  readonly url: URL;
  /** Request headers (User-Agent, Accept, Accept-Encoding). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Aborted when a timeout fires or the caller gives up: the transport must
   * then stop connecting, or destroy the response body stream.
   */
  readonly signal: AbortSignal;
  /**
   * Decoded bytes the caller reads at most. A transport that decodes may
   * stop each decoding stage one byte past it (and then say so in `limited`).
   */
  readonly maxBodyBytes: number;
  /**
   * When set, the transport must not connect to an address for which it
   * returns false (checked on the address it resolved and will connect to),
   * and rejects with an Error whose `code` is "ERR_ADDRESS_REFUSED".
   */
  readonly allowAddress?: (address: string) => boolean;
}

/** The response a transport hands back. */
export interface TransportResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** Header names lowercased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /**
   * The header field lines as received, names lowercased, repeated fields
   * apart, when the transport has them (page rules need them: an
   * X-Robots-Tag line's crawler scope ends with its line).
   */
  readonly fieldLines?: ReadonlyArray<readonly [string, string]>;
  /**
   * The body with its Content-Encoding removed, as a pull stream: the reader
   * stops pulling at the size limit, and decoding must stop with it.
   */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * True when the transport removed the Content-Encoding. A response that
   * lists a compression (gzip, deflate, br) without it is not read: its
   * bytes are not a robots.txt (a server error, "invalid-response").
   */
  readonly decoded?: boolean;
  /** The codings removed ("identity" when none); default "identity". */
  readonly encoding?: string;
  /** Content-Encoding tokens that are not compressions, passed through. */
  readonly passedThrough?: readonly string[];
  /** Bytes read off the wire so far, when the transport counts them. */
  readonly wireBytes?: () => number;
  /** True when a decoding stage stopped at `maxBodyBytes` before the last one. */
  readonly limited?: () => boolean;
  /** The IP address the response came from, when the transport knows it. */
  readonly remoteAddress?: string;
  /** Release the connection without reading the rest of the body. */
  cancel(): void;
}

/**
 * One HTTP GET without following redirects. Rejects with an Error carrying a
 * Node-style `code` (ENOTFOUND, ECONNREFUSED, ECONNRESET, HPE_…) for network
 * failures; fetchRobotsTxt() turns those into `unreachable` values.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** The subset of WHATWG `fetch` that createFetchTransport() needs. */
export type FetchLike = (
  input: string,
  init: { method: "GET"; headers: Record<string, string>; redirect: "manual"; signal: AbortSignal },
) => Promise<{
  status: number;
  headers: { forEach(cb: (value: string, key: string) => void): void };
  body: AsyncIterable<Uint8Array> | { getReader(): unknown } | null;
}>;

/**
 * A transport over a WHATWG `fetch` (browsers' service workers, Deno, Bun,
 * edge runtimes, undici). `redirect: "manual"` keeps redirects in our hands
 * (docs/protocol.md#access-method counts hops and applies rules to the original origin). Such a
 * fetch decodes gzip/deflate/br itself, so the body limit applies to the
 * decoded stream it yields, which still stops decompression at the limit
 * because the stream is pulled, not pushed.
 *
 * Note: in browsers a manual redirect is opaque (status 0) and cannot be
 * followed; use this in server-side runtimes.
 */
export function createFetchTransport(fetchFn: FetchLike): Transport {
  return async (request) => {
    const res = await fetchFn(request.url.href, {
      method: "GET",
      headers: { ...request.headers },
      redirect: "manual",
      signal: request.signal,
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const body = res.body;
    const iterable: AsyncIterable<Uint8Array> =
      body === null
        ? emptyBody()
        : Symbol.asyncIterator in body
          ? (body as AsyncIterable<Uint8Array>)
          : readerIterable(body as { getReader(): ReaderLike });
    const plan = planDecoding(headers["content-encoding"]);
    return {
      status: res.status,
      headers,
      body: iterable,
      decoded: true,
      encoding: plan.encoding,
      passedThrough: plan.passedThrough,
      cancel() {
        const b = res.body as { cancel?: () => Promise<void> } | null;
        b?.cancel?.().catch(() => {});
      },
    };
  };
}

interface ReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  releaseLock(): void;
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

async function* readerIterable(stream: { getReader(): ReaderLike }): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value !== undefined) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
