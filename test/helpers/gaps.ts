/**
 * The gaps a site saw between requests, for the politeness tests of
 * test/serial/: none may be under 90 % of the Crawl-delay, the guarantee
 * (docs/fleet.md "Politeness").
 */
export interface GapFigures {
  /** The gaps between consecutive arrivals, in ms, in arrival order. */
  readonly gaps: readonly number[];
  /** The gaps under 90 % of the delay, in arrival order. */
  readonly under: readonly number[];
  /** One line for a test's diagnostic: min, median and the count under 90 %. */
  readonly summary: string;
}

/** The gaps between the arrival times `times` (ms), read against `delayMs`. */
export function gapFigures(times: readonly number[], delayMs: number): GapFigures {
  const at = [...times].sort((x, y) => x - y);
  const gaps = at.slice(1).map((x, i) => x - at[i]!);
  const sorted = [...gaps].sort((x, y) => x - y);
  const under = gaps.filter((g) => g < 0.9 * delayMs);
  const summary =
    `gaps: min ${sorted[0] ?? 0} ms, median ${sorted[sorted.length >> 1] ?? 0} ms, ` +
    `${under.length} of ${gaps.length} under 90 %`;
  return { gaps, under, summary };
}
