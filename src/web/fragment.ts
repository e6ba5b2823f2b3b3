/**
 * The page's whole state in the URL fragment, so a link reproduces exactly
 * what its sender saw and nothing is stored on a server: JSON, compressed
 * with the browser's own deflate-raw (CompressionStream), in base64url.
 * Decoding never throws: a damaged or foreign fragment gives null, and the
 * inflated size is bounded so a crafted link cannot exhaust memory.
 */
import { encodeUtf8 } from "../parse/bytes.js";
import { isProfile, type Profile } from "../protocol/profile.js";

export interface PageState {
  readonly robots: string;
  readonly agents: string;
  readonly urls: string;
  readonly profile: Profile;
  /** The other version to compare with (empty: no comparison). */
  readonly compare: string;
}

const PREFIX = "s1=";
/** Two 500 KiB files plus lists fit with room to spare; a larger inflate is refused. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

async function pipe(bytes: Uint8Array, stream: TransformStream<Uint8Array, Uint8Array>) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_STATE_BYTES) {
      await reader.cancel();
      throw new RangeError("state too large");
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x2000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  }
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The fragment (without `#`) for `state`. */
export async function encodeState(state: PageState): Promise<string> {
  const json = JSON.stringify({
    r: state.robots,
    a: state.agents,
    u: state.urls,
    p: state.profile,
    c: state.compare,
  });
  const packed = await pipe(
    encodeUtf8(json),
    new CompressionStream("deflate-raw") as TransformStream<Uint8Array, Uint8Array>,
  );
  return PREFIX + toBase64Url(packed);
}

/** The state in `fragment` (with or without `#`), or null when it holds none. */
export async function decodeState(fragment: string): Promise<PageState | null> {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!text.startsWith(PREFIX)) return null;
  try {
    const json = await pipe(
      fromBase64Url(text.slice(PREFIX.length)),
      new DecompressionStream("deflate-raw") as TransformStream<Uint8Array, Uint8Array>,
    );
    const o = JSON.parse(new TextDecoder().decode(json)) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    return {
      robots: str(o.r),
      agents: str(o.a),
      urls: str(o.u),
      profile: isProfile(o.p) ? o.p : "google",
      compare: str(o.c),
    };
  } catch {
    return null;
  }
}
