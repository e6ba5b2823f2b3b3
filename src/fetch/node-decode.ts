/**
 * Content-Encoding for the Node transport (docs/protocol.md#size-limit; RFC 9110
 * §8.4): what a normal HTTP client reads, under the decoded-size limit.
 *
 * - Stacked codings (`gzip, br`) are removed in reverse order of listing.
 * - `deflate` is read with or without the zlib wrapper (servers send both),
 *   and a gzip body labelled deflate is read as gzip.
 * - `identity`, `none` and tokens we do not know (`utf-8`, `binary`) are
 *   not compressions: the body passes through, and the caller is told so.
 * - An empty body is an empty file whatever its label.
 * - Every stage stops after `limit + 1` bytes of output: a bomb at any layer
 *   inflates only that far. Decoding is pulled chunk by chunk, so when the
 *   reader stops, every stage and the socket stop too.
 *
 * This file and node-transport.ts are the only ones with `node:` imports in
 * the access layer.
 */
import type { Transform } from "node:stream";
import * as zlib from "node:zlib";
import type { Coding } from "./content-encoding.js";
import { BodyDecodeError } from "./read-body.js";

/** zlib output chunk: small so the overshoot past the limit stays small. */
const ZLIB_CHUNK = 16 * 1024;

/** Shared by the stages of one body: set when a stage stopped at the limit. */
export interface DecodeState {
  capped: boolean;
}

/**
 * `source` with `codings` removed (last listed first), each stage cut after
 * `limit + 1` bytes of output.
 */
export function decodeBody(
  source: AsyncIterable<Uint8Array>,
  codings: readonly Coding[],
  limit: number,
  state: DecodeState,
): AsyncIterable<Uint8Array> {
  let stream = source;
  for (let i = codings.length - 1; i >= 0; i--) {
    stream = stage(stream, codings[i]!, limit, state);
  }
  return stream;
}

async function* stage(
  source: AsyncIterable<Uint8Array>,
  coding: Coding,
  limit: number,
  state: DecodeState,
): AsyncGenerator<Uint8Array> {
  const input = source[Symbol.asyncIterator]();
  // The first chunk decides deflate's framing; no chunk at all is an empty file.
  let first = await input.next();
  while (!first.done && first.value.byteLength === 0) first = await input.next();
  if (first.done) return;
  if (coding === "deflate" && first.value.byteLength === 1) {
    // Two bytes tell the zlib header from raw deflate.
    const second = await input.next();
    if (!second.done) {
      const joined = new Uint8Array(1 + second.value.byteLength);
      joined[0] = first.value[0]!;
      joined.set(second.value, 1);
      first = { done: false, value: joined };
    }
  }
  const z = decompressor(coding, first.value);
  let stopped = false;
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
      let chunk: IteratorResult<Uint8Array> = first;
      while (!chunk.done) {
        if (stopped || z.destroyed) break;
        if (!z.write(chunk.value)) await waitWritable();
        if (stopped || z.destroyed) break;
        chunk = await input.next();
      }
      if (!stopped && !z.destroyed) z.end();
    } catch (err) {
      z.destroy(err as Error);
    } finally {
      if (stopped) await input.return?.();
    }
  })();
  let out = 0;
  try {
    for await (const chunk of z as AsyncIterable<Uint8Array>) {
      out += chunk.byteLength;
      if (out > limit + 1) {
        // The limit at this stage: keep up to one byte past it, stop inflating.
        state.capped = true;
        yield chunk.subarray(0, chunk.byteLength - (out - limit - 1));
        return;
      }
      yield chunk;
    }
  } catch (err) {
    // An earlier stage stopped at the limit, so this one saw its input end early.
    if (state.capped) return;
    throw isZlibError(err) ? new BodyDecodeError(`invalid ${coding} body: ${messageOf(err)}`) : err;
  } finally {
    stopped = true;
    z.destroy();
    await feeding;
  }
}

function decompressor(coding: Coding, first: Uint8Array): Transform {
  const options = { chunkSize: ZLIB_CHUNK };
  if (coding === "br") return zlib.createBrotliDecompress(options);
  if (coding === "gzip") return zlib.createGunzip(options);
  // deflate: the zlib format (RFC 1950) when the first two bytes are a valid
  // zlib header, a gzip body when they are its magic, else raw deflate (RFC 1951).
  const b0 = first[0]!;
  const b1 = first[1];
  if (b0 === 0x1f && b1 === 0x8b) return zlib.createGunzip(options);
  if (b1 !== undefined && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0) {
    return zlib.createInflate(options);
  }
  return zlib.createInflateRaw(options);
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("Z_") || code.startsWith("ERR__"));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
