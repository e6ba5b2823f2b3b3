/**
 * Which reading decides in the site-owner commands (check, explain, agents,
 * diff, test): by default the one crawler operators document
 * (src/report/operator-reading.ts: AdsBot-Google ignores `*`,
 * Googlebot-Image follows Googlebot's group…), since a site owner asks what
 * Google's crawler will do; `--reference` gives the open-source reference's
 * bare reading. Wherever the two differ, a note names the other.
 */
import { compileMatcher, type RobotsMatcher, type Verdict } from "../match/compile.js";
import {
  type OperatorException,
  operatorException,
  type ReadingVerdict,
} from "../match/operator-reading.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { asciiLower } from "../protocol/product-token.js";
import type { OptionValues } from "./command.js";
import { CliError } from "./errors.js";
import { verdictText } from "./format.js";

/** `--reference`, and `--operator-rules`, kept: the default it names. */
export const READING_OPTIONS = {
  reference: { type: "boolean" },
  "operator-rules": { type: "boolean" },
} as const;

export const READING_HELP = `  --reference       Google's open-source reference's reading alone; by
                    default the exceptions crawler operators document
                    decide (AdsBot-Google ignores *, Googlebot-Image follows
                    Googlebot's group…), with a note where the two differ`;

/** True for `--reference`; `--operator-rules` (the default) with it is a usage error. */
export function referenceOption(values: OptionValues): boolean {
  const reference = values.reference === true;
  if (reference && values["operator-rules"] === true) {
    throw new CliError(
      "--reference and --operator-rules ask for different readings: pass one of them (the operators' reading is the default)",
    );
  }
  return reference;
}

/** One verdict under the chosen reading, and the other reading's where it differs. */
export interface Decided {
  readonly verdict: Verdict;
  /** The other reading's verdict, when it differs. */
  readonly other?: ReadingVerdict;
  /** The note that names the other reading, when it differs. */
  readonly note?: string;
  /** Which groups applied, when an exception decides and the verdict's own groups would mislead. */
  readonly groupsText?: string;
  /** The exception that applies to the agent, under either reading. */
  readonly exception: OperatorException | null;
}

/** A verdict no group decided: allowed, as for a crawler that ignores `*`. */
function allowedByNoGroup(m: RobotsMatcher, url: string): Verdict {
  const v = m.check(url);
  return { ...v, allowed: true, line: 0, rule: null, source: "none", groups: [] };
}

/**
 * `url` for the agent of `m` (compiled under `robots`): the operators'
 * reading, or with `reference` the reference's, and a note naming the
 * other wherever they differ. `matcherFor` compiles (or reuses) the
 * matcher of a fallback crawler.
 */
export function decideVerdict(
  robots: RobotsTxt,
  m: RobotsMatcher,
  url: string,
  reference: boolean,
  matcherFor: (token: string) => RobotsMatcher,
): Decided {
  const referenceVerdict = m.check(url);
  const exception = operatorException(robots, m.agent, m);
  if (exception === null) return { verdict: referenceVerdict, exception };
  const operator: Verdict =
    exception.kind === "fallback"
      ? matcherFor(exception.token).check(url)
      : allowedByNoGroup(m, url);
  const differs =
    operator.allowed !== referenceVerdict.allowed || operator.line !== referenceVerdict.line;
  const groupsText =
    exception.kind === "ignores-global"
      ? `${JSON.stringify(m.agent)} is not named, and it ignores the * group`
      : undefined;
  if (reference) {
    if (!differs) return { verdict: referenceVerdict, exception };
    return {
      verdict: referenceVerdict,
      other: { allowed: operator.allowed, line: operator.line },
      note: operatorsAnswer(exception.why, operator),
      exception,
    };
  }
  const decided = {
    verdict: operator,
    exception,
    ...(groupsText === undefined ? {} : { groupsText }),
  };
  if (!differs) return decided;
  return {
    ...decided,
    other: { allowed: referenceVerdict.allowed, line: referenceVerdict.line },
    note: `${exception.why}; ${referenceAnswer(referenceVerdict)}`,
  };
}

/** A note for where the operators' reading (the default) answers `v` instead: `why` says what they do. */
export function operatorsAnswer(why: string, v: { allowed: boolean; line: number }): string {
  return `${why}: that reading, the default, answers ${verdictText(v)}`;
}

/** A note for where Google's reference answers `v` instead. */
export function referenceAnswer(v: { allowed: boolean; line: number }): string {
  return `Google's open-source reference, reading the file alone, answers ${verdictText(v)} (--reference)`;
}

/** A matcher per token under one file, compiled once and reused for every URL. */
export class Matchers {
  readonly #robots: RobotsTxt;
  readonly #map = new Map<string, RobotsMatcher>();
  constructor(robots: RobotsTxt) {
    this.#robots = robots;
  }
  get(token: string): RobotsMatcher {
    const key = asciiLower(token);
    let m = this.#map.get(key);
    if (m === undefined) {
      m = compileMatcher(this.#robots, token);
      this.#map.set(key, m);
    }
    return m;
  }
}
