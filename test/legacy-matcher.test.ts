/**
 * docs/protocol.md#profiles: the 1996 profile's comparison form, `%xx` decoded except
 * `%2F` and non-ASCII as UTF-8 bytes, built without a TextEncoder per
 * check; checked against a step-by-step transcription over the bytes.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { legacyForm } from "../src/match/legacy-matcher.js";
import { propertyRuns } from "./helpers/fc-seed.js";

/** The form as the draft states it: encode to UTF-8, then walk the bytes. */
function byBytes(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x25 && i + 2 < bytes.length) {
      const hex = String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        out += hex.toLowerCase() === "2f" ? "%2F" : String.fromCharCode(Number.parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    out += String.fromCharCode(b);
  }
  return out;
}

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

describe("protocol.md#profiles: legacy1996 comparison form", () => {
  test("examples: escapes, %2F kept, UTF-8 bytes, lone surrogates", () => {
    const cases = [
      "/a%41b",
      "/a%2fb",
      "/a%2Fb",
      "/%zz%4",
      "/é",
      "/😀",
      "/\ud800x",
      "/x\udc00",
      "%",
      "%4",
    ];
    for (const s of cases) assert.equal(legacyForm(s), byBytes(s), JSON.stringify(s));
  });

  test("any string: the same as the transcription over its bytes", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        "%",
        "%2f",
        "%2F",
        "%41",
        "%e9",
        "%zz",
        "/",
        "a",
        "é",
        "😀",
        "\ud800",
        "\udfff",
      ),
      fc.string({ unit: "binary" }),
    );
    let escapes = 0;
    let wide = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const s = parts.join("");
        if (/%[0-9a-fA-F]{2}/.test(s)) escapes++;
        if (/[^\x00-\x7f]/.test(s)) wide++;
        assert.equal(legacyForm(s), byBytes(s));
      }),
      propertyRuns(FUZZ_RUNS),
    );
    assert.ok(escapes > 0 && wide > 0, `generated ${escapes} escapes, ${wide} non-ASCII`);
  });
});
