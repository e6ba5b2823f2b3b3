/**
 * Text arbitraries drawn as fast-check's own are, without the map of every
 * code point that fast-check builds for its "binary" string unit (and for
 * fc.webPath, whose percent-encoded characters use it): a Map of 1,112,064
 * entries, built once per process before the first draw (to shrink values
 * without context), which costs seconds of CPU and garbage collection.
 */
import fc from "fast-check";

/** Code points below the surrogates; those above are shifted past them. */
const SURROGATES = 0x800;

/**
 * Any code point but a surrogate, as fc.string({ unit: "binary" }) draws
 * them: index i of 0x10f800 is code point i, or i + 0x800 past U+D7FF.
 */
export const codePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES));

/** Characters a path segment holds as they are (RFC 3986 unreserved, sub-delims, ":" and "@"). */
const SEGMENT_CHARS = `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@`;

/** A code point percent-encoded as fast-check's webSegment writes one: its UTF-8 bytes, or `%` and its hex code when it needs none. */
function percentEncoded(c: string): string {
  const encoded = encodeURIComponent(c);
  return encoded !== c ? encoded : `%${c.charCodeAt(0).toString(16)}`;
}

/** A character of a path segment: ten in eleven as it is, one percent-encoded. */
const segmentUnit = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...SEGMENT_CHARS) },
  { weight: 1, arbitrary: codePoint.map(percentEncoded) },
);

function paths(segmentSize: fc.SizeForArbitrary, countSize: fc.SizeForArbitrary) {
  return fc
    .array(fc.string({ unit: segmentUnit, size: segmentSize }), { size: countSize })
    .map((segments) => segments.map((s) => `/${s}`).join(""));
}

/** Paths as fc.webPath({ size: "small" }) draws them: "" or "/"-led segments. */
export function webPathSmall(): fc.Arbitrary<string> {
  return fc.oneof(paths("small", "xsmall"), paths("xsmall", "small"));
}
