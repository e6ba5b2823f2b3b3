/**
 * How a rule is written back as a line (docs/protocol.md#vocabulary: a rule is an `allow` or
 * `disallow` directive): `Allow: /x`. Explanations, lint findings and the
 * CLI quote rules this way.
 */

/** The canonical key of a rule: `Allow` or `Disallow`. */
export function ruleKey(kind: "allow" | "disallow"): "Allow" | "Disallow" {
  return kind === "allow" ? "Allow" : "Disallow";
}

/**
 * `Allow: /x`: the rule's line with its value as written, cut to `max`
 * characters with an ellipsis when longer.
 */
export function ruleText(
  rule: { readonly kind: "allow" | "disallow"; readonly value: string },
  max = Number.POSITIVE_INFINITY,
): string {
  const v = rule.value.length > max ? `${rule.value.slice(0, max - 1)}…` : rule.value;
  return `${ruleKey(rule.kind)}: ${v}`;
}
