/**
 * IP addresses and CIDR prefixes for crawler verification. Every address is
 * held as 16 bytes: IPv4 as its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`,
 * RFC 4291 §2.5.5.2), so one comparison serves both families and a logged
 * `::ffff:66.249.66.1` matches `66.249.64.0/19`. Parsed by hand, character
 * by character: no RegExp over input.
 */

/** An address as 16 bytes, or null when the text is not an IP address. */
export function parseIp(text: string): Uint8Array | null {
  if (text.length === 0 || text.length > 45) return null;
  return text.includes(":") ? parseIpv6(text) : parseIpv4(text, new Uint8Array(16), 12);
}

function parseIpv4(text: string, out: Uint8Array, at: number): Uint8Array | null {
  let part = 0;
  let value = 0;
  let len = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (len === 0 || part > 3) return null;
      out[at + part++] = value;
      value = 0;
      len = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      // No leading zeros (`010` is octal to some readers): refuse the doubt.
      if (len > 0 && value === 0) return null;
      value = value * 10 + (c - 0x30);
      if (++len > 3 || value > 255) return null;
    } else return null;
  }
  if (part !== 4) return null;
  if (at === 12) {
    out[10] = 0xff;
    out[11] = 0xff;
  }
  return out;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

function parseIpv6(text: string): Uint8Array | null {
  // A zone (`fe80::1%eth0`) names an interface, not an address: drop it.
  const pct = text.indexOf("%");
  const s = pct >= 0 ? text.slice(0, pct) : text;
  const out = new Uint8Array(16);
  const groups: number[] = [];
  let gap = -1;
  let i = 0;
  if (s.startsWith("::")) {
    gap = 0;
    i = 2;
  }
  while (i < s.length) {
    // An embedded IPv4 tail (`::ffff:1.2.3.4`) ends the address.
    const nextColon = s.indexOf(":", i);
    const piece = nextColon < 0 ? s.slice(i) : s.slice(i, nextColon);
    if (nextColon < 0 && piece.includes(".")) {
      if (groups.length > 6 || parseIpv4(piece, out, 12) === null) return null;
      groups.push(out[12]! * 256 + out[13]!, out[14]! * 256 + out[15]!);
      break;
    }
    if (piece.length === 0 || piece.length > 4) return null;
    let v = 0;
    for (let k = 0; k < piece.length; k++) {
      const h = hexValue(piece.charCodeAt(k));
      if (h < 0) return null;
      v = v * 16 + h;
    }
    groups.push(v);
    if (groups.length > 8) return null;
    if (nextColon < 0) break;
    i = nextColon + 1;
    if (s.charCodeAt(i) === 0x3a) {
      if (gap >= 0) return null;
      gap = groups.length;
      i++;
    } else if (i >= s.length) return null;
  }
  if (gap < 0 ? groups.length !== 8 : groups.length > 7) return null;
  const tail = gap < 0 ? [] : groups.splice(gap);
  const all = [...groups, ...new Array<number>(8 - groups.length - tail.length).fill(0), ...tail];
  for (let g = 0; g < 8; g++) {
    out[g * 2] = all[g]! >> 8;
    out[g * 2 + 1] = all[g]! & 0xff;
  }
  return out;
}

/** A CIDR prefix: the first `bits` bits of `bytes` (IPv4 prefixes counted in the mapped form). */
export interface IpPrefix {
  /** The address, as 16 bytes. */
  readonly bytes: Uint8Array;
  /** How many leading bits count (IPv4 prefixes plus 96). */
  readonly bits: number;
}

/** `66.249.64.0/27` or `2001:4860:4801:10::/64` → a prefix; null when it is not one. */
export function parsePrefix(text: string): IpPrefix | null {
  const slash = text.indexOf("/");
  const addr = slash < 0 ? text : text.slice(0, slash);
  const bytes = parseIp(addr);
  if (bytes === null) return null;
  const v4 = !addr.includes(":");
  const max = v4 ? 32 : 128;
  let bits = max;
  if (slash >= 0) {
    const n = text.slice(slash + 1);
    if (n.length === 0 || n.length > 3) return null;
    bits = 0;
    for (let k = 0; k < n.length; k++) {
      const c = n.charCodeAt(k) - 0x30;
      if (c < 0 || c > 9) return null;
      bits = bits * 10 + c;
    }
    if (bits > max) return null;
  }
  return { bytes, bits: v4 ? bits + 96 : bits };
}

/** Whether `ip` lies in `prefix`. */
export function inPrefix(ip: Uint8Array, prefix: IpPrefix): boolean {
  const whole = prefix.bits >> 3;
  for (let k = 0; k < whole; k++) if (ip[k] !== prefix.bytes[k]) return false;
  const rest = prefix.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip[whole]! & mask) === (prefix.bytes[whole]! & mask);
}

/** Two addresses as 16 bytes are the same address. */
export function sameIp(a: Uint8Array, b: Uint8Array): boolean {
  for (let k = 0; k < 16; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The prefixes of an operator's published ranges, in the JSON form Google,
 * Bing and OpenAI publish: `{"prefixes":[{"ipv4Prefix":"…"},{"ipv6Prefix":"…"}]}`.
 * Entries that are not prefixes are counted in `skipped`, not guessed at.
 */
export function readRanges(json: unknown): { prefixes: IpPrefix[]; skipped: number } {
  const list = (json as { prefixes?: unknown } | null)?.prefixes;
  const prefixes: IpPrefix[] = [];
  let skipped = 0;
  if (!Array.isArray(list)) return { prefixes, skipped };
  for (const e of list) {
    const o = e as { ipv4Prefix?: unknown; ipv6Prefix?: unknown } | null;
    const text = o?.ipv4Prefix ?? o?.ipv6Prefix;
    const p = typeof text === "string" ? parsePrefix(text) : null;
    if (p === null) skipped++;
    else prefixes.push(p);
  }
  return { prefixes, skipped };
}
