/**
 * The page-level rule vocabulary: what one rule of an X-Robots-Tag header,
 * a Robots-Tag field or a robots meta tag means (Google's "Robots meta tag,
 * data-nosnippet, and X-Robots-Tag specifications"; draft-illyes-repext-03
 * §3.1.3). Rule names are case-insensitive. Unknown rules are kept, with the
 * text as written, so a report can show them; a known rule with a value that
 * does not parse is kept as `invalid` and has no effect, as Google ignores it.
 */
import { parseHttpDate } from "./http-date.js";

/** Rules Google documents, plus `noarchive`/`nocache` (kept and reported, no longer used by Google). */
export const PAGE_RULE_NAMES = [
  "all",
  "index",
  "follow",
  "noindex",
  "nofollow",
  "none",
  "nosnippet",
  "indexifembedded",
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "notranslate",
  "noimageindex",
  "unavailable_after",
  "noarchive",
  "nocache",
] as const;

/** A rule name of PAGE_RULE_NAMES. */
export type PageRuleName = (typeof PAGE_RULE_NAMES)[number];

/** The rules written `name: value`. */
export const VALUE_RULES: ReadonlySet<string> = new Set([
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "unavailable_after",
]);

const KNOWN: ReadonlySet<string> = new Set(PAGE_RULE_NAMES);

/** The size of image preview a `max-image-preview` rule allows. */
export type ImagePreview = "none" | "standard" | "large";

/** How restrictive each max-image-preview value is: the smaller wins. */
export const IMAGE_PREVIEW_RANK: Readonly<Record<ImagePreview, number>> = {
  none: 0,
  standard: 1,
  large: 2,
};

/** One page rule as read: its name, value and meaning. */
export type PageRule =
  | {
      readonly kind: "flag";
      readonly name: Exclude<
        PageRuleName,
        "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after"
      >;
      readonly text: string;
    }
  | {
      /** max-snippet / max-video-preview: -1 = no limit. */
      readonly kind: "number";
      readonly name: "max-snippet" | "max-video-preview";
      readonly value: number;
      readonly text: string;
    }
  | {
      readonly kind: "image-preview";
      readonly name: "max-image-preview";
      readonly value: ImagePreview;
      readonly text: string;
    }
  | {
      /** unavailable_after: ms since the epoch. */
      readonly kind: "date";
      readonly name: "unavailable_after";
      readonly value: number;
      readonly text: string;
    }
  | {
      /** A known rule whose value does not parse: no effect. */
      readonly kind: "invalid";
      readonly name: PageRuleName;
      readonly text: string;
      readonly problem: string;
    }
  | {
      /** A rule outside the vocabulary: no effect, kept for the report. */
      readonly kind: "unknown";
      readonly name: string;
      readonly text: string;
    };

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Trim HTTP/HTML whitespace (space, tab, CR, LF, FF) — not Unicode spaces, as browsers do. */
export function trimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isAsciiSpace(s.charCodeAt(a))) a++;
  while (b > a && isAsciiSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** A decimal integer, optionally negative, nothing else ("20", "-1"); else undefined. */
function integer(s: string): number | undefined {
  const i = s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === s.length) return undefined;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  // Cap the digits: a longer number is as good as no limit and must not become Infinity.
  const digits = s.slice(i);
  const n = digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
  return s.charCodeAt(0) === 0x2d ? -n : n;
}

/**
 * One rule from its name and value (either may carry spaces around it).
 * `value` is undefined when the rule had no colon.
 */
export function readRule(rawName: string, rawValue: string | undefined, text: string): PageRule {
  const name = trimSpace(rawName).toLowerCase();
  if (!KNOWN.has(name)) return { kind: "unknown", name, text };
  const known = name as PageRuleName;
  const value = rawValue === undefined ? undefined : trimSpace(rawValue);
  if (!VALUE_RULES.has(known)) {
    // A flag with a value ("noindex: yes") is not a rule Google documents.
    if (value !== undefined && value !== "") {
      return { kind: "invalid", name: known, text, problem: `${name} takes no value` };
    }
    return { kind: "flag", name: known as Extract<PageRule, { kind: "flag" }>["name"], text };
  }
  if (value === undefined || value === "") {
    return { kind: "invalid", name: known, text, problem: `${name} needs a value` };
  }
  switch (known) {
    case "max-snippet":
    case "max-video-preview": {
      const n = integer(value);
      if (n === undefined || n < -1) {
        return {
          kind: "invalid",
          name: known,
          text,
          problem: `${name} takes a whole number of ${known === "max-snippet" ? "characters" : "seconds"}, 0 or more, or -1 for no limit`,
        };
      }
      return { kind: "number", name: known, value: n, text };
    }
    case "max-image-preview": {
      const v = value.toLowerCase();
      if (v === "none" || v === "standard" || v === "large") {
        return { kind: "image-preview", name: known, value: v, text };
      }
      return {
        kind: "invalid",
        name: known,
        text,
        problem: "max-image-preview takes none, standard or large",
      };
    }
    default: {
      const ms = parseHttpDate(value);
      if (ms === undefined) {
        return {
          kind: "invalid",
          name: known,
          text,
          problem: "unavailable_after needs a date in RFC 822, RFC 850 or ISO 8601 form",
        };
      }
      return { kind: "date", name: "unavailable_after", value: ms, text };
    }
  }
}

/** Where a page statement was read: X-Robots-Tag, Robots-Tag or a meta tag. */
export type PageRuleSource = "x-robots-tag" | "robots-tag" | "meta";

/** Rules a page gives, and the crawler they are for. */
export interface PageStatement {
  /** Where they were read. */
  readonly via: PageRuleSource;
  /** The crawler named, lowercased; null when the rules apply to every crawler. */
  readonly scope: string | null;
  /** The rules, in order. */
  readonly rules: readonly PageRule[];
}
