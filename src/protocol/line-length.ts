/**
 * Long lines (docs/protocol.md#long-lines): only the first 16,663 bytes of a line are kept,
 * the rest of that line is dropped (it still counts as one line). The
 * scanner cuts lines here; the linter and explain report the cut.
 */

/** Bytes of a line the parser keeps (the reference's kMaxLineLen, 2083 × 8 - 1). */
export const MAX_LINE_BYTES = 16663;
