/**
 * The byte-order mark (docs/protocol.md#byte-order-mark): leading bytes that form a prefix of the
 * UTF-8 BOM `EF BB BF` are skipped, so `EF`, `EF BB` and `EF BB BF` at the
 * very start vanish; a BOM anywhere else is ordinary data. The parser skips
 * what this returns and the linter reports it.
 */

/** How many leading bytes of `body` are a prefix of the UTF-8 BOM: 0 to 3. */
export function bomPrefixLength(body: Uint8Array): number {
  if (body[0] !== 0xef) return 0;
  if (body[1] !== 0xbb) return 1;
  return body[2] === 0xbf ? 3 : 2;
}
