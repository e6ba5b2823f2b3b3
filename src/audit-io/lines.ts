/**
 * Access logs as batches of lines, in bounded memory: a file, a `.gz` file
 * (node:zlib), stdin (`-`) or any readable stream. A line longer than
 * LINE_CAP characters is not held: it is reported as `null` (malformed) and
 * skipped to its end, so a log without line ends cannot exhaust memory.
 */
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";

/** The longest line read (64 KiB): far beyond any request line a server logs by default. */
export const LINE_CAP = 64 * 1024;

/** A log to read: a file name, `-` for stdin, or a stream with a label. */
export type LogInput = string | { readonly stream: Readable; readonly label: string };

/** The stream and label of a log; `.gz` names are decompressed. */
export function openLog(input: LogInput): { stream: Readable; label: string } {
  if (typeof input !== "string") return input;
  const raw = input === "-" ? process.stdin : createReadStream(input);
  const label = input === "-" ? "<stdin>" : input;
  if (!input.endsWith(".gz")) return { stream: raw, label };
  const gunzip = createGunzip();
  raw.on("error", (err: Error) => gunzip.destroy(err));
  return { stream: raw.pipe(gunzip), label };
}

/**
 * Calls `onBatch` with the lines of each chunk read (a `null` for each
 * line longer than LINE_CAP), LF or CRLF ended, waiting for it before
 * reading on.
 */
export async function eachLineBatch(
  stream: Readable,
  onBatch: (lines: (string | null)[]) => void | Promise<void>,
): Promise<void> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let overlong = false;
  const take = (text: string, batch: (string | null)[]) => {
    let from = 0;
    for (;;) {
      const nl = text.indexOf("\n", from);
      if (nl < 0) break;
      if (overlong || pending.length + nl - from > LINE_CAP) {
        batch.push(null);
      } else {
        let line = pending + text.slice(from, nl);
        if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
        batch.push(line);
      }
      pending = "";
      overlong = false;
      from = nl + 1;
    }
    if (!overlong) {
      pending += text.slice(from);
      if (pending.length > LINE_CAP) {
        overlong = true;
        pending = "";
      }
    }
  };
  for await (const chunk of stream) {
    const batch: (string | null)[] = [];
    take(typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer), batch);
    if (batch.length > 0) await onBatch(batch);
  }
  const batch: (string | null)[] = [];
  take(decoder.end(), batch);
  if (overlong) batch.push(null);
  else if (pending !== "") batch.push(pending.endsWith("\r") ? pending.slice(0, -1) : pending);
  if (batch.length > 0) await onBatch(batch);
}
