/**
 * Every diagnostic id has a positive fixture (it fires, on exactly the lines
 * and with the severities listed in test/fixtures/lint/cases.json) and a
 * negative one (a near miss where it must stay silent). The documentation
 * lists every id exactly once.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import {
  DIAGNOSTIC_IDS,
  DIAGNOSTICS,
  type DiagnosticId,
  SEVERITIES,
} from "../src/lint/diagnostics.js";
import { type LintOptions, lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { REPO_ROOT } from "./helpers/shared.js";

const FIXTURES = path.join(REPO_ROOT, "test/fixtures/lint");

interface Case {
  /** File name → expected "line:severity" findings of the case's id. */
  bad: Record<string, string[]>;
  good: string[];
  options?: LintOptions;
}

const cases = JSON.parse(readFileSync(path.join(FIXTURES, "cases.json"), "utf8")) as Record<
  string,
  Case
>;

function fixture(id: string, name: string): Buffer {
  return readFileSync(path.join(FIXTURES, id, name));
}

test("every diagnostic id has fixtures, and every fixture names a real id", () => {
  assert.deepEqual(Object.keys(cases).sort(), [...DIAGNOSTIC_IDS].sort());
  for (const [id, c] of Object.entries(cases)) {
    assert.ok(Object.keys(c.bad).length > 0, `${id}: no positive fixture`);
    assert.ok(c.good.length > 0, `${id}: no negative fixture`);
  }
});

describe("diagnostics fire on their positive fixtures only", () => {
  for (const id of DIAGNOSTIC_IDS) {
    const c = cases[id];
    if (c === undefined) continue;
    for (const [name, expected] of Object.entries(c.bad)) {
      test(`${id}: fires in ${name}`, () => {
        const { diagnostics } = lintRobotsTxt(fixture(id, name), c.options ?? {});
        const got = diagnostics.filter((d) => d.id === id).map((d) => `${d.line}:${d.severity}`);
        assert.deepEqual(got, expected, JSON.stringify(diagnostics, null, 1));
      });
    }
    for (const name of c.good) {
      test(`${id}: silent on ${name}`, () => {
        const { diagnostics } = lintRobotsTxt(fixture(id, name), c.options ?? {});
        const got = diagnostics.filter((d) => d.id === id);
        assert.deepEqual(got, [], JSON.stringify(got, null, 1));
      });
    }
  }
});

describe("every finding is well formed", () => {
  for (const [id, c] of Object.entries(cases)) {
    test(`${id}: fields`, () => {
      for (const name of [...Object.keys(c.bad), ...c.good]) {
        const result = lintRobotsTxt(fixture(id, name), c.options ?? {});
        const lineCount = result.robots.lineCount;
        for (const d of result.diagnostics) {
          assert.ok(d.id in DIAGNOSTICS, d.id);
          assert.ok((SEVERITIES as readonly string[]).includes(d.severity), d.severity);
          assert.ok(
            Number.isInteger(d.line) && d.line >= 1 && d.line <= lineCount,
            `line ${d.line}`,
          );
          if (d.column !== undefined) assert.ok(Number.isInteger(d.column) && d.column >= 1);
          assert.ok(d.message.length > 10 && !d.message.includes("undefined"), d.message);
          assert.ok(d.fix.length > 5 && !d.fix.includes("undefined"), d.fix);
        }
        const counted = { error: 0, warning: 0, info: 0 };
        for (const d of result.diagnostics) counted[d.severity]++;
        assert.deepEqual(result.counts, counted);
      }
    });
  }
});

test("docs/diagnostics.md documents every id exactly once, and nothing else", () => {
  const doc = readFileSync(path.join(REPO_ROOT, "docs/diagnostics.md"), "utf8");
  const headings = [...doc.matchAll(/^### ([a-z0-9-]+)\s*$/gm)].map((m) => m[1]!);
  assert.deepEqual([...headings].sort(), [...DIAGNOSTIC_IDS].sort());
  for (const id of DIAGNOSTIC_IDS) {
    const section = doc.split(`### ${id}\n`)[1]!.split("\n### ")[0]!;
    for (const field of ["**Severity:**", "**Meaning:**", "**Example:**", "**Fix:**"]) {
      assert.ok(section.includes(field), `${id} lacks ${field}`);
    }
    assert.ok(
      section.includes(DIAGNOSTICS[id as DiagnosticId].severity),
      `${id}: the usual severity is not mentioned`,
    );
  }
});

describe("details the fixtures do not pin", () => {
  test("columns point at the offending character, counting UTF-8 sequences once", () => {
    const { diagnostics } = lintRobotsTxt("User-agent: *\nDisallow: /é/*.php$?\n");
    const d = diagnostics.find((x) => x.id === "dollar-not-at-end");
    assert.equal(d?.column, "Disallow: /é/*.php".length + 1);
  });

  test("the line cut by the 500 KiB limit is named, with the column of the cut", () => {
    const rule =
      "Disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";
    const body = `User-agent: *\n${rule.repeat(Math.ceil(520_000 / rule.length))}`;
    const { diagnostics } = lintRobotsTxt(body);
    const d = diagnostics.find((x) => x.id === "file-over-limit");
    assert.ok(d !== undefined);
    const offset = 512_000 - "User-agent: *\n".length;
    assert.equal(d.line, 2 + Math.floor(offset / rule.length));
    assert.equal(d.column, (offset % rule.length) + 1);
    assert.equal(d.severity, "error");
  });

  test("a body that is not a robots.txt gets one finding, not one per line", () => {
    const page = `<!doctype html>\n${"<p>Disallow /x /y</p>\n".repeat(50)}`;
    const { diagnostics, lines } = lintRobotsTxt(page);
    assert.deepEqual(
      diagnostics.map((d) => d.id),
      ["html-instead-of-robots"],
    );
    assert.equal(lines.length, 51);
  });

  test("strings and bytes lint the same", () => {
    const text = "Useragent: *\nDisallow /é\nAllow: /x\nDisallow: /x\n";
    assert.deepEqual(
      lintRobotsTxt(text).diagnostics,
      lintRobotsTxt(new TextEncoder().encode(text)).diagnostics,
    );
  });

  test("lines: false skips the line records but not the findings", () => {
    const body = readFileSync(path.join(FIXTURES, "accepted-typo/bad.txt"));
    const full = lintRobotsTxt(body);
    const lean = lintRobotsTxt(body, { lines: false });
    assert.equal(lean.lines.length, 0);
    assert.ok(full.lines.length > 0);
    assert.deepEqual(lean.diagnostics, full.diagnostics);
  });

  test("bad options are programmer errors with clear messages", () => {
    assert.throws(() => lintRobotsTxt("", { profile: "bing" as never }), /Unknown profile "bing"/);
    assert.throws(() => lintRobotsTxt("", { sizeLimit: -1 }), /sizeLimit must be a positive/);
    assert.throws(() => lintRobotsTxt(42 as never), /must be a Uint8Array or a string/);
  });

  test("the rfc9309 profile reads no typos, so it reports none", () => {
    const body = "Useragent: *\nDisallow: /x\n";
    assert.ok(lintRobotsTxt(body).diagnostics.some((d) => d.id === "accepted-typo"));
    const strict = lintRobotsTxt(body, { profile: "rfc9309" });
    assert.ok(!strict.diagnostics.some((d) => d.id === "accepted-typo"));
    assert.ok(strict.diagnostics.some((d) => d.id === "rule-outside-group"));
  });
});
