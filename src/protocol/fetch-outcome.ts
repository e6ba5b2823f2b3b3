/**
 * The vocabulary of one robots.txt fetch's outcome (docs/protocol.md#status-codes,
 * #caching): why a fetch found no robots.txt, why it counts as a server
 * error, and the response headers caching reads. Defined here, below both
 * src/fetch (which produces outcomes) and src/cache (which stores them).
 */

/** Response headers that matter for caching. */
export interface CacheHeaders {
  /** The Cache-Control field value. */
  readonly cacheControl?: string;
  /** The Expires field value. */
  readonly expires?: string;
  /** The Date field value. */
  readonly date?: string;
  /** The Retry-After field value. */
  readonly retryAfter?: string;
  /** Seconds a cache on the way held the response (RFC 9111 §5.1). */
  readonly age?: string;
}

/** Why a fetch found no robots.txt (RFC 9309 §2.3.1.3). */
export type UnavailableReason = "status" | "too-many-redirects" | "redirect-loop" | "bad-redirect";

/**
 * Why a fetch counts as a server error (RFC 9309 §2.3.1.4,
 * docs/protocol.md#access-method). `refused` is a refused connection
 * (`ECONNREFUSED`) or a hop the address rule refused before connecting
 * (`ERR_ADDRESS_REFUSED`, docs/protocol.md#redirects).
 */
export type UnreachableReason =
  | "status"
  | "dns"
  | "refused"
  | "reset"
  | "timeout"
  | "invalid-response"
  | "network";
