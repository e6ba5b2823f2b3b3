/**
 * Pattern matching (docs/protocol.md#matching). A pattern matches a prefix of the path; `*`
 * matches any run of characters; `$` anchors the end only as the pattern's
 * last character. Compiled once into a literal prefix plus the literal
 * segments between stars, then matched with greedy leftmost search, which is
 * exact for this language and runs in O(pattern × path) at worst: no RegExp
 * is ever built from a pattern, and nothing backtracks.
 */

export const PatternShape = {
  /** No `*`, no final `$`: the literal prefix is the whole test. */
  prefix: 0,
  /** No `*`, final `$`: the path must end right after the prefix. */
  exact: 1,
  /** Has `*`: the segments must follow in order. */
  glob: 2,
} as const;
export type PatternShape = (typeof PatternShape)[keyof typeof PatternShape];

export interface CompiledPattern {
  /** Literal text before the first `*` (or the final `$`). */
  readonly prefix: string;
  readonly shape: PatternShape;
  /** Non-empty literal segments after the prefix, in order (glob only). */
  readonly segments: readonly string[];
  /** The last segment must end at the end of the path (glob only). */
  readonly anchored: boolean;
}

export function compilePattern(pattern: string): CompiledPattern {
  let end = pattern.length;
  let anchored = false;
  if (end > 0 && pattern.charCodeAt(end - 1) === 0x24 /* $ */) {
    anchored = true;
    end--;
  }
  const star = pattern.indexOf("*");
  if (star < 0) {
    return {
      prefix: anchored ? pattern.slice(0, end) : pattern,
      shape: anchored ? PatternShape.exact : PatternShape.prefix,
      segments: [],
      anchored,
    };
  }
  // One pass over the rest, slicing the non-empty runs between stars
  // (measured: `split` then `filter` made two arrays per pattern).
  const prefix = pattern.slice(0, star);
  const segments: string[] = [];
  let from = star + 1;
  for (let i = from; i <= end; i++) {
    if (i === end || pattern.charCodeAt(i) === 0x2a /* * */) {
      if (i > from) segments.push(pattern.slice(from, i));
      from = i + 1;
    }
  }
  // "…*$" lets anything follow: the anchor then adds nothing.
  if (anchored && pattern.charCodeAt(end - 1) === 0x2a) anchored = false;
  if (segments.length === 0) {
    return { prefix, shape: PatternShape.prefix, segments, anchored: false };
  }
  return { prefix, shape: PatternShape.glob, segments, anchored };
}

/**
 * Does the rest of a pattern match `str[pos, end)`, given that its literal
 * prefix already matched `str` ending at `pos`?
 */
export function matchRest(p: CompiledPattern, str: string, pos: number, end: number): boolean {
  if (p.shape === PatternShape.prefix) return true;
  if (p.shape === PatternShape.exact) return pos === end;
  const segs = p.segments;
  return matchSegments(segs[0]!, segs, 1, p.anchored, str, pos, end);
}

/**
 * Does a glob's rest match `str[pos, end)`, given that its key (the literal
 * prefix) already matched `str` ending at `pos`? matchRest for a glob held
 * as its first segment and the others (RuleIndex's GlobData).
 */
export function matchGlob(
  g: { readonly seg: string; readonly more: readonly string[] | null; readonly anchored: boolean },
  str: string,
  pos: number,
  end: number,
): boolean {
  return matchSegments(g.seg, g.more, 0, g.anchored, str, pos, end);
}

/**
 * Where the greedy leftmost match of an unanchored glob's segments from
 * `pos` ends in `str[pos, end)`, or -1 when they do not all occur. In a
 * shorter range `[pos, e)` the glob matches exactly when this end is at
 * most `e`: each segment's earliest occurrence is the one that ends first.
 */
export function globEnd(
  g: { readonly seg: string; readonly more: readonly string[] | null },
  str: string,
  pos: number,
  end: number,
): number {
  return segmentsEnd(g.seg, g.more, 0, str, pos, end);
}

/**
 * Greedy leftmost placement of the segments `first`, then `more[from…]`,
 * from `pos` in `str[pos, end)`: where the last one ends, or -1.
 */
function segmentsEnd(
  first: string,
  more: readonly string[] | null,
  from: number,
  str: string,
  pos: number,
  end: number,
): number {
  let seg = first;
  let at = findSegment(str, seg, pos, end);
  if (at < 0) return -1;
  pos = at + seg.length;
  if (more !== null) {
    for (let i = from; i < more.length; i++) {
      seg = more[i]!;
      at = findSegment(str, seg, pos, end);
      if (at < 0) return -1;
      pos = at + seg.length;
    }
  }
  return pos;
}

/**
 * Greedy leftmost search of the segments `first`, then `more[from…]`, in
 * order from `pos`; the last one ends at `end` when `anchored`. Exact for
 * this language: taking each segment's earliest occurrence leaves the most
 * room for the rest.
 */
function matchSegments(
  first: string,
  more: readonly string[] | null,
  from: number,
  anchored: boolean,
  str: string,
  pos: number,
  end: number,
): boolean {
  if (!anchored) return segmentsEnd(first, more, from, str, pos, end) >= 0;
  // All but the last segment placed greedily; the last ends at `end`.
  let seg = first;
  if (more !== null) {
    for (let i = from; i < more.length; i++) {
      const at = findSegment(str, seg, pos, end);
      if (at < 0) return false;
      pos = at + seg.length;
      seg = more[i]!;
    }
  }
  const at = end - seg.length;
  return at >= pos && str.startsWith(seg, at);
}

/**
 * Ranges longer than this are searched with String#indexOf, shorter ones in a
 * loop: a native search has a fixed cost that a short loop undercuts
 * (docs/performance-decisions.md, Checking).
 */
export const SHORT_SEARCH = 8;

/**
 * First index `i` in `[from, end - seg.length]` where `seg` occurs, or -1.
 * Short ranges (most paths) are searched here: a builtin call costs more than
 * the whole scan. Long ranges use `indexOf` (linear-time search in V8).
 */
function findSegment(str: string, seg: string, from: number, end: number): number {
  const m = seg.length;
  const last = end - m;
  if (last < from) return -1;
  if (last - from > SHORT_SEARCH) {
    const at = str.indexOf(seg, from);
    return at >= 0 && at <= last ? at : -1;
  }
  const c0 = seg.charCodeAt(0);
  outer: for (let i = from; i <= last; i++) {
    if (str.charCodeAt(i) !== c0) continue;
    for (let k = 1; k < m; k++) if (str.charCodeAt(i + k) !== seg.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

/** Does a compiled pattern match `path` (the whole string, docs/protocol.md#matching)? */
export function compiledMatches(p: CompiledPattern, path: string): boolean {
  return path.startsWith(p.prefix) && matchRest(p, path, p.prefix.length, path.length);
}

/** Does `pattern` match `path` (the whole string)? For tools and tests; the matcher uses compiled forms. */
export function matchesPattern(pattern: string, path: string): boolean {
  return compiledMatches(compilePattern(pattern), path);
}
