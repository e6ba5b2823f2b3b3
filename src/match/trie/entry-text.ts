/**
 * An entry's text in the file's pattern text (RuleTable#text): an entry is
 * a rule (`no2` even: rule `no2 >> 1`) or its index.html twin `/dir/$`
 * (`no2` odd), whose text is the rule's up to the `/` before `index.htm`
 * and whose `$` is not in the text.
 */
import { indexHtmlSlashOf, R_END, R_START, ROW, type RuleRows } from "../../parse/rule-table.js";

/** The pattern of rule `no2 >> 1`, or of its index.html twin when `no2` is odd. */
export function entryPattern(text: string, rows: RuleRows, no2: number): string {
  const ps = rows[(no2 >> 1) * ROW + R_START]!;
  const pe = entryTextEnd(text, rows, no2);
  return (no2 & 1) === 0 ? text.slice(ps, pe) : `${text.slice(ps, pe)}$`;
}

/**
 * Where the text of entry `no2` ends in the file's pattern text: the rule's
 * end, or for its index.html twin (`no2` odd) just after the `/` before
 * `index.html` (the twin's `$` is not in the text).
 */
export function entryTextEnd(text: string, rows: RuleRows, no2: number): number {
  return (no2 & 1) === 0
    ? rows[(no2 >> 1) * ROW + R_END]!
    : indexHtmlSlashOf(text, rows, no2 >> 1) + 1;
}

/**
 * Where the text of the entry of rule `no2 >> 1` (its index.html twin when
 * `no2` is odd) ends, a final `$` left out: the twin `/dir/$` ends at its
 * `/` (its text lacks the `$`).
 */
export function globStop(text: string, rows: RuleRows, no2: number): number {
  const end = entryTextEnd(text, rows, no2);
  return (no2 & 1) === 0 ? withoutDollar(text, end) : end;
}

/** Where a pattern whose text ends at `end` ends once a final `$` is left out. */
export function withoutDollar(text: string, end: number): number {
  return text.charCodeAt(end - 1) === 0x24 /* $ */ ? end - 1 : end;
}
