/**
 * Product tokens and how agents compare (docs/protocol.md#vocabulary, #groups, #choosing-rules): a crawler's
 * name is made of `[A-Za-z_-]`, a user-agent line names the longest prefix of
 * its value made of them (or the global group), and names compare ASCII
 * case-insensitively. The one home of that character class and comparison;
 * the parser, the matcher, the linter, explain, diff and the crawler report
 * read them from here.
 */

/** Is `c` (a byte or a UTF-16 code unit) one of `[A-Za-z_-]`? */
export function isProductTokenChar(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f;
}

/** End of the run of token bytes in `bytes[start, end)` that begins at `start`. */
export function productTokenEnd(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end && isProductTokenChar(bytes[i]!)) i++;
  return i;
}

/**
 * The token a parser reads from `name` (docs/protocol.md#groups): its longest prefix made
 * of `[A-Za-z_-]`, possibly empty (`FooBot/1.2` → `FooBot`, `MJ12bot` → `MJ`).
 */
export function leadingProductToken(name: string): string {
  let i = 0;
  while (i < name.length && isProductTokenChar(name.charCodeAt(i))) i++;
  return name.slice(0, i);
}

/**
 * Does the user-agent value `bytes[start, end)` name the global group
 * (docs/protocol.md#groups)? `*` alone, or followed by ASCII whitespace (C isspace:
 * space, \t, \n, \v, \f, \r).
 */
export function isGlobalAgent(bytes: Uint8Array, start: number, end: number): boolean {
  if (end === start || bytes[start] !== 0x2a) return false;
  if (end === start + 1) return true;
  const next = bytes[start + 1]!;
  return next === 0x20 || (next >= 0x09 && next <= 0x0d);
}

/** ASCII-only lowercase, as the reference compares agents (no Unicode case folding, docs/protocol.md#choosing-rules). */
export function asciiLower(s: string): string {
  let lower = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      lower = false;
      break;
    }
  }
  if (lower) return s;
  // All ASCII: the native lowering changes exactly A–Z (it folds Unicode
  // only beyond ASCII), without a concatenation per character.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s.toLowerCase();
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c | 0x20) : s[i];
  }
  return out;
}

/**
 * `token` equals `agent` ignoring ASCII case (A–Z only, as the reference
 * compares agents, docs/protocol.md#choosing-rules); allocates nothing, where lowering the agent
 * first made a new string per matcher for an agent such as `Googlebot`.
 */
export function sameAgent(token: string, agent: string): boolean {
  if (token.length !== agent.length) return false;
  for (let i = 0; i < token.length; i++) {
    let a = token.charCodeAt(i);
    let b = agent.charCodeAt(i);
    if (a === b) continue;
    if (a >= 0x41 && a <= 0x5a) a |= 0x20;
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    if (a !== b) return false;
  }
  return true;
}
