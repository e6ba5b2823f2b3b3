/**
 * Text read from log bytes, and a bounded cache of what is computed from
 * it. A log repeats a handful of User-Agent headers and paths millions of
 * times: the cache recognises bytes it has seen (a hash, then a byte
 * comparison) and gives back what it made of them the first time, without
 * decoding them again.
 */

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Bytes [start, end) as UTF-8 text, each invalid sequence a U+FFFD (as
 * node:string_decoder reads a stream); short ASCII without a call to the decoder.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let text = "";
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      if (b >= 0x80) return utf8.decode(bytes.subarray(start, end));
      text += String.fromCharCode(b);
    }
    return text;
  }
  return utf8.decode(bytes.subarray(start, end));
}

/** Keys longer than this are not kept (a hostile log's 60 KiB User-Agent is decoded each time). */
const MAX_KEY = 1024;
/** The slot of a key is chosen by its length and its first HEAD and last TAIL bytes. */
const HEAD = 16;
const TAIL = 32;

/** Whether a quoted field's scan reads `key` to its end: no `"` and no `\`. */
function plain(key: Uint8Array): boolean {
  for (const b of key) if (b === 0x22 || b === 0x5c) return false;
  return true;
}

/**
 * A direct-mapped cache from byte strings to values made from their text:
 * `slots` entries at most (a power of two), each a copy of its key's bytes
 * and its value, so memory is bounded by slots × 1 KiB whatever the log.
 */
export class TextCache<V> {
  readonly #keys: (DataView | undefined)[];
  readonly #plain: boolean[];
  readonly #values: (V | undefined)[];
  readonly #mask: number;
  // The bytes read last and a view of them, for reading four bytes at a time.
  #bytes: Uint8Array = new Uint8Array(0);
  #view = new DataView(this.#bytes.buffer);

  constructor(
    slots: number,
    readonly make: (text: string) => V,
  ) {
    this.#keys = new Array<DataView | undefined>(slots).fill(undefined);
    this.#plain = new Array<boolean>(slots).fill(false);
    this.#values = new Array<V | undefined>(slots).fill(undefined);
    this.#mask = slots - 1;
  }

  #viewOf(bytes: Uint8Array): DataView {
    if (bytes !== this.#bytes) {
      this.#bytes = bytes;
      this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return this.#view;
  }

  /**
   * FNV-1a over the length and the key's first and last bytes, four at a
   * time (the multiplies form a chain), folded to a slot. Keys alike there
   * share a slot and only cost a miss; the comparison decides.
   */
  #slot(bytes: Uint8Array, view: DataView, start: number, end: number): number {
    let h = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
    const head = Math.min(end, start + HEAD);
    let i = start;
    for (; i + 4 <= head; i += 4) h = Math.imul(h ^ view.getInt32(i, true), 0x01000193);
    i = Math.max(i, end - TAIL);
    for (; i + 4 <= end; i += 4) h = Math.imul(h ^ view.getInt32(i, true), 0x01000193);
    for (; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    return (h ^ (h >>> 15)) & this.#mask;
  }

  /** Whether `slot` holds bytes [start, end): compared four bytes at a time. */
  #holds(slot: number, bytes: Uint8Array, view: DataView, start: number, end: number): boolean {
    const key = this.#keys[slot];
    const len = end - start;
    if (key === undefined || key.byteLength !== len) return false;
    let j = 0;
    for (; j + 4 <= len; j += 4)
      if (key.getInt32(j, true) !== view.getInt32(start + j, true)) return false;
    for (; j < len; j++) if (key.getUint8(j) !== bytes[start + j]) return false;
    return true;
  }

  /** The value made from the text of bytes [start, end): remembered, or made now. */
  get(bytes: Uint8Array, start: number, end: number): V {
    const len = end - start;
    if (len > MAX_KEY) return this.make(decodeUtf8(bytes, start, end));
    const view = this.#viewOf(bytes);
    const slot = this.#slot(bytes, view, start, end);
    if (this.#holds(slot, bytes, view, start, end)) return this.#values[slot]!;
    const value = this.make(decodeUtf8(bytes, start, end));
    // A copy: a view would keep the whole chunk of the log it came from alive.
    const copy = new Uint8Array(len);
    for (let j = 0; j < len; j++) copy[j] = bytes[start + j]!;
    this.#keys[slot] = new DataView(copy.buffer);
    this.#plain[slot] = plain(copy);
    this.#values[slot] = value;
    return value;
  }

  /**
   * The value of bytes [start, end) when they are a key already seen with no
   * `"` and no `\`, else undefined: then a quoted field's scan would end
   * exactly at `end`, so a match is the field without scanning it.
   */
  plainHit(bytes: Uint8Array, start: number, end: number): V | undefined {
    if (end - start > MAX_KEY) return undefined;
    const view = this.#viewOf(bytes);
    const slot = this.#slot(bytes, view, start, end);
    return this.#plain[slot] && this.#holds(slot, bytes, view, start, end)
      ? this.#values[slot]
      : undefined;
  }
}
