/**
 * The stored form's base64 (src/cache/entry-codec.ts): a body is stored
 * as base64 and must come back byte for byte. Checked against RFC 4648's
 * vectors and Node's own encoder, for every length around the padding
 * cases and for a body at the 500 KiB limit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeBase64, encodeBase64 } from "../src/cache/entry-codec.js";
import { seededRandom } from "./helpers/prng.js";

const ascii = (s: string) => new TextEncoder().encode(s);

test("RFC 4648 §10 test vectors", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  for (const [text, base64] of vectors) {
    assert.equal(encodeBase64(ascii(text)), base64, JSON.stringify(text));
    assert.deepEqual(decodeBase64(base64), ascii(text));
  }
});

test("every length from 0 to 99 and a 500 KiB body: what Node's Buffer encodes, and back", () => {
  const random = seededRandom(4648);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  for (const body of [...Array.from({ length: 100 }, (_, n) => bytes(n)), bytes(500 * 1024)]) {
    const base64 = encodeBase64(body);
    assert.equal(base64, Buffer.from(body).toString("base64"), `${body.byteLength} bytes`);
    assert.deepEqual(decodeBase64(base64), body, `${body.byteLength} bytes back`);
  }
  // Every byte value in every position of a 3-byte group.
  const all = Uint8Array.from({ length: 768 }, (_, i) => i % 256);
  assert.equal(encodeBase64(all), Buffer.from(all).toString("base64"));
});
