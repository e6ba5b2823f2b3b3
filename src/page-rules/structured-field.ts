/**
 * The `Robots-Tag` field of draft-illyes-repext-03 §3.1.1: a Structured
 * Field List (RFC 9651 §3.1) whose members are product tokens (or `*`) and
 * whose parameters are the rules: `Robots-Tag: *;noindex;nosnippet,
 * ExampleBot;max-snippet=20`. A parameter without a value (`;noindex`) is a
 * flag rule; `max-snippet=20`, `max-image-preview=large` and
 * `unavailable_after="2030-01-01"` carry their value.
 *
 * RFC 9651 §4.2: a field that does not parse is ignored as a whole, so
 * parsing (src/protocol/structured-fields.ts, shared with the usage
 * preferences) is strict, reports why, and applies nothing.
 */
import { parseSfList, type SfBareItem } from "../protocol/structured-fields.js";
import { type PageRule, type PageStatement, readRule } from "./rules.js";

export type RobotsTagField =
  | { readonly ok: true; readonly statements: PageStatement[] }
  | { readonly ok: false; readonly problem: string };

/** A rule from one parameter: a flag (`;noindex`), or a value the rule reads. */
function ruleOf(key: string, value: SfBareItem): PageRule {
  switch (value.type) {
    case "boolean":
      if (value.value) return readRule(key, undefined, key);
      return { kind: "unknown", name: key, text: `${key}=?0` };
    case "token":
      return readRule(key, value.value, `${key}=${value.value}`);
    case "string":
      return readRule(key, value.value, `${key}=${JSON.stringify(value.value)}`);
    case "integer":
    case "decimal":
      return readRule(key, String(value.value), `${key}=${value.value}`);
    default:
      // A byte sequence, a date or a display string: no rule takes one.
      return { kind: "unknown", name: key, text: `${key}=(${value.type})` };
  }
}

/** Parse one Robots-Tag field value (repeated fields may be joined with ", "). */
export function parseRobotsTagField(value: string): RobotsTagField {
  const list = parseSfList(value);
  if (!list.ok) {
    return { ok: false, problem: `not a Structured Field list: ${list.problem} at ${list.at}` };
  }
  const statements: PageStatement[] = [];
  for (const m of list.members) {
    if (m.kind === "inner-list") {
      return {
        ok: false,
        problem: "not a Structured Field list: an inner list is not a product token",
      };
    }
    if (m.bare.type !== "token" && m.bare.type !== "string") {
      return {
        ok: false,
        problem: `not a Structured Field list: a ${m.bare.type} is not a product token`,
      };
    }
    const name = m.bare.value;
    statements.push({
      via: "robots-tag",
      scope: name === "*" ? null : name.toLowerCase(),
      rules: m.params.map(([k, v]) => ruleOf(k, v)),
    });
  }
  return { ok: true, statements };
}
