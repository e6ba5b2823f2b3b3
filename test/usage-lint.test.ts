/**
 * Lint of AI usage preference lines beyond the fixtures: a suggested
 * rewrite never states "allowed" unless it says "if you mean to allow it"
 * (advice never broadens what the file says), and no line makes the
 * linter throw.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { splitContentUsage } from "../src/usage/robots-rules.js";
import { readContentSignal, readUsageStatement } from "../src/usage/vocabulary.js";
import { propertyRuns } from "./helpers/fc-seed.js";

const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 300)) || 300);

/**
 * Does a fix propose, without "If you mean to allow it", a line that
 * allows something? Each quoted suggestion is read with the reader of the
 * directive the finding is about.
 */
function allowsUnconditionally(fix: string, signal: boolean): boolean {
  if (fix.startsWith("If you mean to allow it")) return false;
  for (const m of fix.matchAll(/"([^"]*)"/g)) {
    let text = m[1]!.replace(/^content-(?:usage|signal):\s*/i, "");
    if (text.startsWith("/")) text = splitContentUsage(text).statement;
    const read = signal ? readContentSignal(text) : readUsageStatement(text);
    if (Object.values(read.values).includes("allowed")) return true;
  }
  return false;
}

describe("usage lint advice", () => {
  it("names the path a line without a leading / meant, never /", () => {
    const { diagnostics } = lintRobotsTxt(
      "User-agent: *\nContent-Usage: blog/drafts/ train-ai=y\n",
    );
    const d = diagnostics.find((x) => x.id === "usage-path-without-slash");
    assert.ok(d);
    assert.equal(
      d.fix,
      'If you mean to allow it, write "Content-Usage: /blog/drafts/ train-ai=y".',
    );
  });

  it("a rewrite that would allow is conditional; one that disallows is direct", () => {
    const { diagnostics } = lintRobotsTxt(
      "User-agent: *\nContent-Usage: train-ai=yes, search=no\nContent-Signal: ai-train=y, search=n\n",
    );
    const fixes = diagnostics.filter((d) => d.id === "usage-invalid-value").map((d) => d.fix);
    assert.deepEqual(fixes, [
      'If you mean to allow it, write "train-ai=y".',
      'Write "search=n".',
      'If you mean to allow it, write "ai-train=yes".',
      'Write "search=no".',
    ]);
  });

  it("no usage line throws, and no fix proposes an allow unconditionally", () => {
    const word = fc.constantFrom(
      "train-ai",
      "ai-train",
      "ai-use",
      "ai-input",
      "search",
      "bots",
      "Train-AI",
      "/a/",
      "a/",
      "*.pdf",
    );
    const value = fc.constantFrom("y", "n", "yes", "no", "true", "1", "maybe", '"y"', "");
    const item = fc
      .tuple(word, fc.constantFrom("=", ": ", " = ", ""), value)
      .map(([k, s, v]) => `${k}${s}${v}`);
    const line = fc.tuple(
      fc.constantFrom("Content-Usage", "Content-Signal", "content-usage"),
      fc.constantFrom("", "/x ", "x/ ", "*.pdf "),
      fc.array(item, { maxLength: 3 }),
      fc.constantFrom(", ", ",", " ", ";"),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 4 }), fc.boolean(), (lines, before) => {
        const body = lines.map(([k, p, items, sep]) => `${k}: ${p}${items.join(sep)}`);
        const text = before
          ? [...body, "User-agent: *", ...body].join("\n")
          : ["User-agent: *", ...body].join("\n");
        const textLines = text.split("\n");
        for (const d of lintRobotsTxt(text).diagnostics) {
          if (!d.id.startsWith("usage-")) continue;
          const signal = /^content-signal/i.test(textLines[d.line - 1] ?? "");
          assert.ok(!allowsUnconditionally(d.fix, signal), `${d.id}: ${d.fix}`);
        }
      }),
      propertyRuns(RUNS),
    );
  });
});
