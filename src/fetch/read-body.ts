/**
 * Reading a robots.txt body under the size limit (SPEC.md §8 "Size", RFC 9309
 * §2.5): keep the first `limit` bytes, stop reading there and parse what was
 * read. The limit counts DECODED bytes, so a gzip bomb (a few KB on the wire,
 * gigabytes inflated) is cut off after `limit` bytes of output: decompression
 * is pulled chunk by chunk and the decompressor is destroyed as soon as the
 * limit is reached, so memory never grows past the limit plus one chunk.
 */
import type { Transform } from "node:stream";
import * as zlib from "node:zlib";
import type { TransportResponse } from "./transport.js";

export interface BodyRead {
  /** The decoded body, at most `limit` bytes. */
  readonly body: Uint8Array;
  /** More than `limit` decoded bytes were available; the rest was not read. */
  readonly truncated: boolean;
  /** Bytes taken off the wire (compressed size when encoded). */
  readonly wireBytes: number;
  /** The Content-Encoding that was removed ("identity" when none). */
  readonly encoding: string;
}

/** A body we could not decode: an unknown Content-Encoding or corrupt compressed data. */
export class BodyDecodeError extends Error {
  readonly code = "ERR_BODY_DECODE";
  constructor(message: string) {
    super(message);
    this.name = "BodyDecodeError";
  }
}

/** zlib output chunk: small so the overshoot past the limit stays small. */
const ZLIB_CHUNK = 16 * 1024;

function decompressorFor(encoding: string): Transform | null | undefined {
  switch (encoding) {
    case "":
    case "identity":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip({ chunkSize: ZLIB_CHUNK });
    case "deflate":
      // RFC 9110 "deflate" is the zlib format; createUnzip() also accepts a
      // gzip body mislabelled as deflate, which some servers send.
      return zlib.createUnzip({ chunkSize: ZLIB_CHUNK });
    case "br":
      return zlib.createBrotliDecompress({ chunkSize: ZLIB_CHUNK });
    default:
      return undefined;
  }
}

/**
 * Read `response`'s body, decoded, up to `limit` bytes. Rejects with the
 * stream's error on a reset or abort, or with a BodyDecodeError.
 */
export async function readBody(response: TransportResponse, limit: number): Promise<BodyRead> {
  const encoding = response.decoded
    ? "identity"
    : (response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const decompressor = decompressorFor(encoding);
  if (decompressor === undefined) {
    response.cancel();
    throw new BodyDecodeError(`unsupported Content-Encoding ${JSON.stringify(encoding)}`);
  }
  const counter = { wire: 0 };
  const source = countBytes(response.body, counter);
  const collector = new Collector(limit);
  if (decompressor === null) {
    for await (const chunk of source) {
      if (collector.add(chunk)) break;
    }
  } else {
    await inflate(source, decompressor, collector, () => response.cancel());
  }
  if (collector.truncated) response.cancel();
  return {
    body: collector.result(),
    truncated: collector.truncated,
    wireBytes: counter.wire,
    encoding,
  };
}

async function* countBytes(
  body: AsyncIterable<Uint8Array>,
  counter: { wire: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    counter.wire += chunk.byteLength;
    yield chunk;
  }
}

/** Keeps the first `limit` bytes; reports when more arrived. */
class Collector {
  readonly #limit: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  truncated = false;
  constructor(limit: number) {
    this.#limit = limit;
  }
  /** Returns true when the limit was passed and reading should stop. */
  add(chunk: Uint8Array): boolean {
    const room = this.#limit - this.#size;
    if (chunk.byteLength > room) {
      if (room > 0) this.#chunks.push(chunk.subarray(0, room));
      this.#size += Math.max(room, 0);
      this.truncated = true;
      return true;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    return false;
  }
  result(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0]!;
    const out = new Uint8Array(this.#size);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}

/**
 * Feed `source` into `z` while pulling its output into `collector`, with
 * backpressure both ways: when we stop pulling, zlib stops inflating, its
 * input buffer fills and the feeder stops reading the socket.
 */
async function inflate(
  source: AsyncGenerator<Uint8Array>,
  z: Transform,
  collector: Collector,
  cancel: () => void,
): Promise<void> {
  let stopped = false;
  let fed = false;
  const waitWritable = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        z.off("drain", done);
        z.off("close", done);
        resolve();
      };
      z.on("drain", done);
      z.on("close", done);
    });
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        if (stopped || z.destroyed) break;
        if (!z.write(chunk)) await waitWritable();
        if (stopped || z.destroyed) break;
      }
      if (!stopped && !z.destroyed) z.end();
    } catch (err) {
      z.destroy(err as Error);
    } finally {
      fed = true;
    }
  })();
  try {
    for await (const chunk of z as AsyncIterable<Uint8Array>) {
      if (collector.add(chunk)) break;
    }
  } catch (err) {
    throw isZlibError(err)
      ? new BodyDecodeError(`invalid compressed body: ${messageOf(err)}`)
      : err;
  } finally {
    stopped = true;
    z.destroy();
    // Stopped early (limit reached or corrupt data): drop the connection now
    // rather than wait for a server that may keep the body open forever.
    if (!fed) cancel();
    await feeding;
  }
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("Z_") || code.startsWith("ERR__"));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
