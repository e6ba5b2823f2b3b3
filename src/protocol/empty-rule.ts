/**
 * What a rule can decide (docs/protocol.md#empty-patterns): an empty pattern matches every path
 * with priority 0, and priority 0 never disallows, so an empty `Disallow:`
 * allows everything (it can still be the reported deciding line, docs/protocol.md#deciding-line). The
 * matcher, the crawler report, explain and the linter read it from here.
 */

/** Does a matching rule of this kind and pattern length (priority) disallow? */
export function disallows(kind: "allow" | "disallow", priority: number): boolean {
  return kind === "disallow" && priority > 0;
}
