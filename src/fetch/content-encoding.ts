/**
 * Reading a Content-Encoding header (RFC 9110 §8.4): the codings to remove,
 * in the order they were listed, and the tokens that are not compressions
 * (`none`, `utf-8`, unknown ones), which a normal HTTP client passes through
 * and so do we (docs/protocol.md#size-limit). `identity` and empty tokens are nothing.
 * Registered compressions we cannot remove (`zstd`, `compress`…) are neither:
 * their bytes are not a robots.txt, so the body is not read as one.
 */

export type Coding = "gzip" | "deflate" | "br";

export interface DecodePlan {
  /** Codings to remove, as listed; they are removed last first. */
  readonly codings: readonly Coding[];
  /** The codings as a label ("identity" when none). */
  readonly encoding: string;
  /** Listed tokens that are not compressions: the body is passed through as to them. */
  readonly passedThrough: readonly string[];
  /** Listed compressions this package cannot remove: a body in them is a server error. */
  readonly unsupported: readonly string[];
}

/**
 * Content codings of the IANA registry (RFC 9110 §18.6) that compress or
 * encrypt, besides the three we remove: what they wrap is not readable text.
 * We never ask for them (Accept-Encoding: gzip, deflate, br).
 */
const UNSUPPORTED: ReadonlySet<string> = new Set([
  "zstd",
  "compress",
  "x-compress",
  "aes128gcm",
  "pack200-gzip",
  "exi",
  "dcb",
  "dcz",
]);

function codingOf(token: string): Coding | null {
  switch (token) {
    case "gzip":
    case "x-gzip":
      return "gzip";
    case "deflate":
      return "deflate";
    case "br":
      return "br";
    default:
      return null;
  }
}

export function planDecoding(header: string | undefined): DecodePlan {
  const codings: Coding[] = [];
  const passedThrough: string[] = [];
  const unsupported: string[] = [];
  for (const raw of (header ?? "").split(",")) {
    const token = raw.trim().toLowerCase();
    if (token === "" || token === "identity") continue;
    const coding = codingOf(token);
    if (coding !== null) codings.push(coding);
    else if (UNSUPPORTED.has(token)) unsupported.push(token);
    else passedThrough.push(token.slice(0, 40));
  }
  return {
    codings,
    encoding: codings.length === 0 ? "identity" : codings.join(", "),
    passedThrough,
    unsupported,
  };
}
