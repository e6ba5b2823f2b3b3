/**
 * Directive keys as the line reader reads them (docs/protocol.md#directive-keys):
 * which key a line has, per profile, the quick test of the three exact
 * keys of nearly every rule line, and the keys the reference knows but
 * ignores. Keys are compared as bytes, never as strings.
 */
import type { Profile } from "../protocol/profile.js";
import type { LineEvent } from "./line-event.js";

/** A key name as lowercase bytes: read from a typed array, not with `charCodeAt`. */
function keyword(lower: string): Uint8Array {
  return Uint8Array.from(lower, (c) => c.charCodeAt(0));
}

/**
 * Body bytes [start, end) begin with `lower` (lowercase ASCII) ignoring
 * ASCII case. Measured: with the key names as strings (`charCodeAt`),
 * classifying keys took 15 % of parsing a file of plain rules.
 */
function startsWithIgnoreCase(
  body: Uint8Array,
  start: number,
  end: number,
  lower: Uint8Array,
): boolean {
  const n = lower.length;
  if (end - start < n) return false;
  for (let i = 0; i < n; i++) {
    let b = body[start + i]!;
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    if (b !== lower[i]) return false;
  }
  return true;
}

function equalsIgnoreCase(
  body: Uint8Array,
  start: number,
  end: number,
  lower: Uint8Array,
): boolean {
  return end - start === lower.length && startsWithIgnoreCase(body, start, end, lower);
}

/** `disa`, `llow`, `allo`, `user`, `-age` as little-endian 32-bit words. */
const W_DISA = 0x61736964;
const W_LLOW = 0x776f6c6c;
const W_ALLO = 0x6f6c6c61;
const W_USER = 0x72657375;
const W_AGE = 0x6567612d;

const USER_AGENT = keyword("user-agent");
const USERAGENT = keyword("useragent");
const USER_SPACE_AGENT = keyword("user agent");
const ALLOW = keyword("allow");
const DISALLOW = keyword("disallow");
const SITEMAP = keyword("sitemap");
const SITE_MAP = keyword("site-map");

/**
 * Classify a key the way the reference does (docs/protocol.md#directive-keys): case-insensitive,
 * matched as a prefix, tested in the order user-agent, allow, disallow,
 * sitemap. Strict profiles accept only the exact key names. Dispatching on
 * the first letter first: every accepted key starts with u, a, d or s.
 */
export function classifyKey(
  body: Uint8Array,
  ks: number,
  ke: number,
  profile: Profile,
  ev: LineEvent,
  view: DataView | null,
): void {
  ev.typo = false;
  if (view !== null && ks + 8 <= body.length) {
    // The three keys of nearly every rule line, spelt exactly, read as two
    // little-endian words (ORing 0x20 folds A–Z and nothing else that can
    // stand in a key: it would also map CR to `-` and NUL to space, and
    // neither is ever inside one). An exact key is classified the same way
    // by every profile. Cheaper than the byte compare below
    // (docs/performance-decisions.md, Parsing).
    const len = ke - ks;
    const w0 = view.getInt32(ks, true) | 0x20202020;
    if (len === 8) {
      if (w0 === W_DISA && (view.getInt32(ks + 4, true) | 0x20202020) === W_LLOW) {
        ev.kind = "disallow";
        return;
      }
    } else if (len === 5) {
      if (w0 === W_ALLO && (body[ks + 4]! | 0x20) === 0x77) {
        ev.kind = "allow";
        return;
      }
    } else if (len === 10) {
      if (
        w0 === W_USER &&
        (view.getInt32(ks + 4, true) | 0x20202020) === W_AGE &&
        (body[ks + 8]! | 0x20) === 0x6e &&
        (body[ks + 9]! | 0x20) === 0x74
      ) {
        ev.kind = "user-agent";
        return;
      }
    }
  }
  ev.kind = "other";
  let first = body[ks]!;
  if (first >= 0x41 && first <= 0x5a) first |= 0x20;
  if (profile !== "google") {
    if (first === 0x75 && equalsIgnoreCase(body, ks, ke, USER_AGENT)) ev.kind = "user-agent";
    else if (first === 0x61 && equalsIgnoreCase(body, ks, ke, ALLOW)) ev.kind = "allow";
    else if (first === 0x64 && equalsIgnoreCase(body, ks, ke, DISALLOW)) ev.kind = "disallow";
    else if (first === 0x73 && equalsIgnoreCase(body, ks, ke, SITEMAP)) ev.kind = "sitemap";
    return;
  }
  switch (first) {
    case 0x75 /* u */:
      if (startsWithIgnoreCase(body, ks, ke, USER_AGENT)) ev.kind = "user-agent";
      else if (
        startsWithIgnoreCase(body, ks, ke, USERAGENT) ||
        startsWithIgnoreCase(body, ks, ke, USER_SPACE_AGENT)
      ) {
        ev.kind = "user-agent";
        ev.typo = true;
      }
      return;
    case 0x61 /* a */:
      if (startsWithIgnoreCase(body, ks, ke, ALLOW)) ev.kind = "allow";
      return;
    case 0x64 /* d */:
      if (startsWithIgnoreCase(body, ks, ke, DISALLOW)) ev.kind = "disallow";
      else {
        for (const t of DISALLOW_TYPOS) {
          if (startsWithIgnoreCase(body, ks, ke, t)) {
            ev.kind = "disallow";
            ev.typo = true;
            return;
          }
        }
      }
      return;
    case 0x73 /* s */:
      if (startsWithIgnoreCase(body, ks, ke, SITEMAP)) ev.kind = "sitemap";
      else if (startsWithIgnoreCase(body, ks, ke, SITE_MAP)) {
        ev.kind = "sitemap";
        ev.typo = true;
      }
      return;
    default:
  }
}

const DISALLOW_TYPOS = ["dissallow", "dissalow", "disalow", "diasllow", "disallaw"].map(keyword);

/** Length of an exact `disallow:`, `allow:` or `user-agent:` key at `s` (colon included), else 0. */
export function exactKeyLength(body: Uint8Array, n: number, s: number): number {
  // `| 0x20` folds A–Z onto a–z and maps no other byte onto a letter; the
  // `-` and the colon are compared exactly. Written out, not a loop over a
  // keyword (startsWithIgnoreCase): the loop cost most of what the quick
  // path saves (docs/performance-decisions.md, Parsing).
  const f = body[s]! | 0x20;
  if (f === 0x64 /* d */) {
    return s + 9 <= n &&
      (body[s + 1]! | 0x20) === 0x69 &&
      (body[s + 2]! | 0x20) === 0x73 &&
      (body[s + 3]! | 0x20) === 0x61 &&
      (body[s + 4]! | 0x20) === 0x6c &&
      (body[s + 5]! | 0x20) === 0x6c &&
      (body[s + 6]! | 0x20) === 0x6f &&
      (body[s + 7]! | 0x20) === 0x77 &&
      body[s + 8] === 0x3a
      ? 9
      : 0;
  }
  if (f === 0x61 /* a */) {
    return s + 6 <= n &&
      (body[s + 1]! | 0x20) === 0x6c &&
      (body[s + 2]! | 0x20) === 0x6c &&
      (body[s + 3]! | 0x20) === 0x6f &&
      (body[s + 4]! | 0x20) === 0x77 &&
      body[s + 5] === 0x3a
      ? 6
      : 0;
  }
  if (f === 0x75 /* u */) {
    return s + 11 <= n &&
      (body[s + 1]! | 0x20) === 0x73 &&
      (body[s + 2]! | 0x20) === 0x65 &&
      (body[s + 3]! | 0x20) === 0x72 &&
      body[s + 4] === 0x2d &&
      (body[s + 5]! | 0x20) === 0x61 &&
      (body[s + 6]! | 0x20) === 0x67 &&
      (body[s + 7]! | 0x20) === 0x65 &&
      (body[s + 8]! | 0x20) === 0x6e &&
      (body[s + 9]! | 0x20) === 0x74 &&
      body[s + 10] === 0x3a
      ? 11
      : 0;
  }
  return 0;
}

/** Keys the reference knows but ignores; their lines are reported as `unused`. */
export const UNUSED_KEYS: ReadonlySet<string> = new Set([
  "clean-param",
  "content-signal",
  "content-usage",
  "crawl-delay",
  "domain",
  "host",
  "noarchive",
  "nofollow",
  "noindex",
  "request-rate",
  "revisit-after",
  "visit-time",
]);

/** UNUSED_KEYS as lowercase bytes, by length. */
const UNUSED_BY_LENGTH: Uint8Array[][] = (() => {
  const out: Uint8Array[][] = [];
  for (const k of UNUSED_KEYS) {
    while (out.length <= k.length) out.push([]);
    out[k.length]!.push(keyword(k));
  }
  return out;
})();

/**
 * The key `body[start, end)`, ASCII-lowercased, is one of UNUSED_KEYS (the
 * `unused` line kind), without making its string: the parser's line
 * records and the linter's lines ask it of every `other` line.
 */
export function isUnusedKey(body: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n >= UNUSED_BY_LENGTH.length) return false;
  search: for (const k of UNUSED_BY_LENGTH[n]!) {
    for (let i = 0; i < n; i++) {
      let b = body[start + i]!;
      if (b >= 0x41 && b <= 0x5a) b |= 0x20;
      if (b !== k[i]) continue search;
    }
    return true;
  }
  return false;
}
