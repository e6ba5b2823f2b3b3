/**
 * Fixes that change more than their own line (docs/diagnostics.md): a rule
 * written between the user-agent lines of a group splits the group, and
 * removing a group's only rule merges its user-agent lines into the next
 * group (docs/protocol.md#groups). Either may allow crawlers more, so such
 * a fix says so; whether it does is known only at the next user-agent line.
 */
import type { Diagnostic } from "./diagnostics.js";

export class GroupFixNotes {
  /** Findings whose fix makes their line a rule, between the user-agent lines of one group. */
  readonly #addRule: number[] = [];
  /** Findings whose fix removes the only rule of a group so far. */
  readonly #removeOnlyRule: number[] = [];

  /** Finding `index` has a fix that makes its line a rule, while a group's user-agent lines are open. */
  addsRule(index: number): void {
    this.#addRule.push(index);
  }

  /** Finding `index` has a fix that may remove the only rule of its group so far. */
  removesOnlyRule(index: number): void {
    this.#removeOnlyRule.push(index);
  }

  /** A rule line, the group's `count`-th: the user-agent lines are closed, and a later rule keeps the group. */
  ruleLine(count: number): void {
    this.#addRule.length = 0;
    if (count > 1) this.#removeOnlyRule.length = 0;
  }

  /**
   * A user-agent line, line `line`: the fixes noted above change the groups,
   * and their fix text in `diagnostics` gains the caveat.
   */
  userAgentLine(diagnostics: Diagnostic[], line: number): void {
    for (const i of this.#addRule) {
      const d = diagnostics[i]!;
      diagnostics[i] = {
        ...d,
        fix: `${d.fix}; note that a rule on line ${d.line} splits its group: the crawlers named above it then no longer follow the rules below line ${line}, which may allow them more`,
      };
    }
    this.#addRule.length = 0;
    for (const i of this.#removeOnlyRule) {
      const d = diagnostics[i]!;
      diagnostics[i] = {
        ...d,
        fix: `${d.fix}; note that without line ${d.line} its group has no rules, so its User-agent lines join the group at line ${line} and their crawlers follow its rules, which may allow them more`,
      };
    }
    this.#removeOnlyRule.length = 0;
  }
}
