/**
 * The body of a cached copy as the client keeps it in process
 * (docs/fetching.md "Memory"): DEFLATE (RFC 1951, `deflate-raw`) through
 * the web-standard CompressionStream, which every runtime the client runs
 * on has (Node ≥ 18, Deno, Bun, browsers, workers), its bytes held as a
 * one-byte string: a string costs a 16-byte header where a Uint8Array costs
 * an ArrayBuffer, a view and a separately allocated store. The warm path
 * never reads it: the compiled rules are kept beside it; it is unpacked
 * only to rebuild what is rarely asked (robots(), sitemaps(), the entry
 * written back to a store).
 *
 * The first character says how the rest is held: a body too short to gain
 * from compression is kept as it is.
 */

/** Bodies up to this many bytes are kept uncompressed (DEFLATE's framing outweighs its gain). */
const RAW_MAX = 48;
const RAW = "r";
const DEFLATE = "d";

/** The packed form of `body`. */
export async function packBody(body: Uint8Array): Promise<string> {
  if (body.byteLength <= RAW_MAX) return bytesToString(RAW, body);
  const packed = await pipe(body, new CompressionStream("deflate-raw"));
  if (packed.byteLength >= body.byteLength) return bytesToString(RAW, body);
  return bytesToString(DEFLATE, packed);
}

/** The body `packed` holds. */
export async function unpackBody(packed: string): Promise<Uint8Array> {
  const bytes = stringToBytes(packed, 1);
  if (packed.startsWith(RAW)) return bytes;
  return pipe(bytes, new DecompressionStream("deflate-raw"));
}

/** `bytes` through a compression or decompression stream. */
async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream) {
  const writer = stream.writable.getWriter();
  void writer.write(bytes).catch(() => {});
  void writer.close().catch(() => {});
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** `head`, then one character per byte (a one-byte string). */
function bytesToString(head: string, bytes: Uint8Array): string {
  // fromCharCode applied to slices of the bytes: one call per slice, as
  // one argument per byte would overflow the stack on 500 KiB (a spread,
  // `...chunk`, goes through the iterator: several times slower). Joined,
  // not concatenated: one flat string, not a tree of pieces.
  if (bytes.byteLength === 0) return head;
  const parts: string[] = [head];
  for (let i = 0; i < bytes.byteLength; i += 0x2000) {
    parts.push(
      String.fromCharCode.apply(null, bytes.subarray(i, i + 0x2000) as unknown as number[]),
    );
  }
  return parts.join("");
}

function stringToBytes(s: string, from: number): Uint8Array {
  const out = new Uint8Array(s.length - from);
  for (let i = from; i < s.length; i++) out[i - from] = s.charCodeAt(i);
  return out;
}
