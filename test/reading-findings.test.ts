/**
 * readingFindings gives the findings that say a body is not read as a
 * person expects (a BOM, an HTML page, binary data, UTF-16) in the words
 * lintRobotsTxt gives them, without linting every line.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { readingFindings } from "../src/lint/reading-findings.js";
import { CORPUS_DIR, hasShared } from "./helpers/shared.js";

const READING = new Set(["bom", "html-instead-of-robots", "binary-instead-of-robots"]);

function fromLint(body: Uint8Array) {
  return lintRobotsTxt(body, { lines: false }).diagnostics.filter(
    (d) => READING.has(d.id) || (d.id === "invalid-utf8" && d.severity === "error"),
  );
}

const enc = (s: string) => new TextEncoder().encode(s);
const BODIES: Record<string, Uint8Array> = {
  plain: enc("User-agent: *\nDisallow: /x\n"),
  bom: enc("\ufeffUser-agent: *\nDisallow: /x\n"),
  "part of a bom": new Uint8Array([0xef, 0xbb, ...enc("User-agent: *\n")]),
  html: enc("<!DOCTYPE html><html><body>Not found</body></html>\n"),
  "html above groups": enc("<html>\nUser-agent: *\nDisallow: /x\n"),
  gzip: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4]),
  "utf-16": new Uint8Array([...enc("User-agent: *\n")].flatMap((b) => [b, 0])),
  "bom and html": enc("\ufeff<html><body>x</body></html>"),
  "a bom inside": enc("User-agent: *\nDisallow: /a\n\ufeffUser-agent: FooBot\nDisallow: /b\n"),
};

for (const [name, body] of Object.entries(BODIES)) {
  test(`${name}: the linter's reading findings, word for word`, () => {
    assert.deepEqual(readingFindings(body, "google"), fromLint(body));
  });
}

test("the first 500 corpus files: the same findings as the linter's", (t) => {
  if (!hasShared()) {
    t.skip("../shared/corpus is absent: the fixed bodies above still ran");
    return;
  }
  const dir = path.join(CORPUS_DIR, "files");
  const files = readdirSync(dir).sort().slice(0, 500);
  assert.equal(files.length, 500);
  for (const f of files) {
    const body = new Uint8Array(readFileSync(path.join(dir, f)));
    assert.deepEqual(readingFindings(body, "google"), fromLint(body), f);
  }
});
