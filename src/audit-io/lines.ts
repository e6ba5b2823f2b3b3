/**
 * Access logs as batches of lines, in bounded memory: a file, a `.gz` file
 * (node:zlib), stdin (`-`) or any readable stream. Lines are byte ranges of
 * the chunks read, found with Buffer#indexOf and never decoded here. A line
 * longer than LINE_CAP bytes is not held: it is reported as malformed and
 * skipped to its end, so a log without line ends cannot exhaust memory.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { LineBatch } from "../audit/log-reader.js";

/** The longest line read, in bytes (64 KiB): far beyond any request line a server logs by default. */
export const LINE_CAP = 64 * 1024;

/** Bytes read at a time from a file or gzip stream: fewer, bigger batches. */
const CHUNK = 1 << 20;

/** A log to read: a file name, `-` for stdin, or a stream with a label. */
export type LogInput = string | { readonly stream: Readable; readonly label: string };

/** The chunks of a log: Buffers (or strings, from a stream with an encoding set). */
export type LogChunks = AsyncIterable<Uint8Array | string>;

/**
 * The chunks of the file `name`, read into two buffers in turn: the next
 * chunk is read while the caller handles this one, so it rarely waits for
 * the read (on a loaded machine, for the thread pool to get a CPU), and no
 * fresh buffer is made per chunk for the collector to reclaim.
 */
async function* fileChunks(name: string): AsyncGenerator<Buffer> {
  const file = await open(name, "r");
  const readInto = (buffer: Buffer) => {
    const read = file.read(buffer, 0, CHUNK, null);
    // A read ahead that fails while the caller awaits something else must
    // not be an unhandled rejection: its error is thrown where it is awaited.
    read.catch(() => undefined);
    return read;
  };
  let mine = Buffer.allocUnsafe(CHUNK);
  let ahead = Buffer.allocUnsafe(CHUNK);
  let next = readInto(mine);
  try {
    for (;;) {
      const { bytesRead } = await next;
      if (bytesRead === 0) return;
      next = readInto(ahead);
      yield mine.subarray(0, bytesRead);
      [mine, ahead] = [ahead, mine];
    }
  } finally {
    // The caller stopped early or a read failed: let the read in flight end first.
    await next.catch(() => undefined);
    await file.close();
  }
}

/** The chunks and label of a log; `.gz` names are decompressed. */
export function openLog(input: LogInput): { stream: LogChunks; label: string } {
  if (typeof input !== "string") return input;
  if (input === "-") return { stream: process.stdin, label: "<stdin>" };
  if (!input.endsWith(".gz")) return { stream: fileChunks(input), label: input };
  const raw = createReadStream(input, { highWaterMark: CHUNK });
  const gunzip = createGunzip({ chunkSize: CHUNK });
  raw.on("error", (err: Error) => gunzip.destroy(err));
  return { stream: raw.pipe(gunzip), label: input };
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk)
    ? chunk
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The ranges of the lines of `bytes` from `from` that end in it; returns where the rest starts. */
function splitLines(bytes: Buffer, from: number, starts: number[], ends: number[]): number {
  let start = from;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    if (nl < 0) return start;
    starts.push(nl - start > LINE_CAP ? -1 : start);
    ends.push(nl - start > LINE_CAP ? -1 : nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl);
    start = nl + 1;
  }
}

/** A batch of the one line `bytes` (CR end left out), or of one overlong line. */
function oneLine(bytes: Buffer | null): LineBatch {
  if (bytes === null) return { bytes: new Uint8Array(0), starts: [-1], ends: [-1] };
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return { bytes, starts: [0], ends: [end] };
}

/**
 * Calls `onBatch` with the lines of each chunk read, as byte ranges (a line
 * longer than LINE_CAP bytes marked -1, never held), LF or CRLF ended,
 * waiting for it before reading on. A line split across chunks is copied
 * into a batch of its own.
 */
export async function eachLineBatch(
  stream: LogChunks,
  onBatch: (batch: LineBatch) => void | Promise<void>,
): Promise<void> {
  // The start of a line the chunks so far have not ended, unless it is overlong.
  let held: Buffer[] = [];
  let heldBytes = 0;
  let overlong = false;
  const hold = (bytes: Buffer) => {
    if (overlong || heldBytes + bytes.length > LINE_CAP) {
      overlong = true;
      held = [];
      heldBytes = 0;
    } else {
      held.push(Buffer.from(bytes));
      heldBytes += bytes.length;
    }
  };
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : asBuffer(chunk);
    let from = 0;
    if (heldBytes > 0 || overlong) {
      const nl = bytes.indexOf(10);
      if (nl < 0) {
        hold(bytes);
        continue;
      }
      hold(bytes.subarray(0, nl));
      await onBatch(oneLine(overlong ? null : Buffer.concat(held)));
      held = [];
      heldBytes = 0;
      overlong = false;
      from = nl + 1;
    }
    const batch = { bytes, starts: [] as number[], ends: [] as number[] };
    const rest = splitLines(bytes, from, batch.starts, batch.ends);
    if (batch.starts.length > 0) await onBatch(batch);
    if (rest < bytes.length) hold(bytes.subarray(rest));
  }
  if (overlong || heldBytes > 0) await onBatch(oneLine(overlong ? null : Buffer.concat(held)));
}
