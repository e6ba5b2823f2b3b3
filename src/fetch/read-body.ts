/**
 * Reading a robots.txt body under the size limit (docs/protocol.md#size-limit, RFC 9309
 * §2.5). The transport hands over the DECODED body as a pull stream (see
 * TransportResponse); we keep one byte past `limit`, stop pulling there (so
 * a decompression bomb is inflated only that far), and apply the cut-line
 * rule of src/parse/crawler-view.ts: when the body is longer than the
 * limit, the line the limit cuts applies when it is a Disallow rule, and
 * is dropped otherwise, as the crawler's profile reads it (see crawlerView).
 *
 * No `node:` imports: the Node transport does the decoding.
 */
import { crawlerView, cutView } from "../parse/crawler-view.js";
import type { Profile } from "../protocol/profile.js";
import { planDecoding } from "./content-encoding.js";
import type { TransportResponse } from "./transport.js";

export interface BodyRead {
  /** The bytes that apply: at most `limit`; when cut, ending with a complete line or a cut Disallow rule (crawlerView). */
  readonly body: Uint8Array;
  /** More than `limit` decoded bytes were available; the rest was not read and does not apply. */
  readonly truncated: boolean;
  /** Bytes taken off the wire (compressed size when encoded), when the transport knows. */
  readonly wireBytes: number;
  /** The codings removed ("identity" when none). */
  readonly encoding: string;
  /** Content-Encoding tokens that are not compressions, passed through (`none`, `utf-8`, …). */
  readonly passedThrough: readonly string[];
}

/** A body we could not decode: corrupt compressed data. */
export class BodyDecodeError extends Error {
  readonly code = "ERR_BODY_DECODE";
  constructor(message: string) {
    super(message);
    this.name = "BodyDecodeError";
  }
}

/**
 * Read `response`'s decoded body, keeping what applies under `limit` and
 * `profile`. Rejects with the stream's error on a reset or abort, or a
 * BodyDecodeError.
 */
export async function readBody(
  response: TransportResponse,
  limit: number,
  profile: Profile,
): Promise<BodyRead> {
  const plan = planDecoding(response.headers["content-encoding"]);
  if (response.decoded !== true) {
    if (plan.codings.length > 0) {
      response.cancel();
      // Reading compressed bytes as a robots.txt would apply garbage (most
      // likely: no rules at all): a server error is the safe reading.
      throw new BodyDecodeError(
        `the transport did not remove Content-Encoding ${JSON.stringify(plan.encoding)}`,
      );
    }
  }
  const counter = { wire: 0 };
  const source =
    response.wireBytes === undefined ? countBytes(response.body, counter) : response.body;
  const collector = new Collector(limit + 1);
  for await (const chunk of source) {
    if (plan.unsupported.length > 0 && chunk.byteLength > 0) {
      // zstd, compress…: no transport here removes them, and reading their
      // bytes as a robots.txt would apply garbage (most likely no rules).
      // An empty body is still an empty file, whatever its label.
      response.cancel();
      throw new BodyDecodeError(
        `Content-Encoding ${JSON.stringify(plan.unsupported.join(", "))} cannot be decoded (we ask for gzip, deflate or br)`,
      );
    }
    if (collector.add(chunk)) break;
  }
  const over = collector.full;
  if (over) response.cancel();
  const read = collector.result();
  // An inner coding stage that stopped at the limit cut the body short too.
  const cappedEarly = !over && response.limited?.() === true;
  const view = cappedEarly
    ? cutView(read, read.byteLength, profile)
    : crawlerView(read, limit, profile);
  // A view into a larger buffer (a socket chunk) would keep all of it alive in the cache.
  const bytes =
    view.bytes.byteLength === view.bytes.buffer.byteLength ? view.bytes : view.bytes.slice();
  return {
    body: bytes,
    truncated: view.truncated,
    wireBytes: response.wireBytes === undefined ? counter.wire : response.wireBytes(),
    encoding: response.encoding ?? "identity",
    passedThrough: response.passedThrough ?? [],
  };
}

/** `body`, adding each chunk's size to `counter.wire` as it passes. */
export async function* countBytes(
  body: AsyncIterable<Uint8Array>,
  counter: { wire: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    counter.wire += chunk.byteLength;
    yield chunk;
  }
}

/** Keeps the first `max` bytes; says when they are all there. */
class Collector {
  readonly #max: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  full = false;
  constructor(max: number) {
    this.#max = max;
  }
  /** Returns true when `max` bytes are in and reading should stop. */
  add(chunk: Uint8Array): boolean {
    const room = this.#max - this.#size;
    if (chunk.byteLength >= room) {
      this.#chunks.push(chunk.subarray(0, room));
      this.#size += room;
      this.full = true;
      return true;
    }
    if (chunk.byteLength > 0) this.#chunks.push(chunk);
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
