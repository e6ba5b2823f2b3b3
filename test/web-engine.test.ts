/**
 * The tester page's work across edits (src/web/engine.ts): with the
 * matchers (GridMatchers) and the bytes (TextBytes) kept from the last
 * version of the file, every cell of an edited file's grid equals the grid
 * computed from scratch, and the kept bytes equal the text's UTF-8.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readAgentName } from "../src/match/agent-name.js";
import type { RobotsMatcher } from "../src/match/compile.js";
import { encodeUtf8 } from "../src/parse/bytes.js";
import { PROFILES } from "../src/protocol/profile.js";
import { computeGrid, crawlerRobots, GridMatchers, TextBytes } from "../src/web/engine.js";
import { seededRandom } from "./helpers/prng.js";
import { bodyOf, conformanceSetLines } from "./helpers/shared.js";

const latin1 = new TextDecoder("latin1");

/** Texts of conformance records, with their checks' agents and URLs (a few per set). */
function cases(): { text: string; agents: string[]; urls: string[] }[] {
  const out: { text: string; agents: string[]; urls: string[] }[] = [];
  for (const set of conformanceSetLines()) {
    const step = Math.max(1, Math.floor(set.length / 25));
    for (let i = 0; i < set.length; i += step) {
      const rec = set.record(i);
      const body = bodyOf(rec);
      if (body.length > 64 * 1024) continue;
      out.push({
        text: latin1.decode(body),
        agents: [...new Set(rec.checks.map((c) => c.agent))].slice(0, 5),
        urls: [...new Set(rec.checks.map((c) => c.url))].slice(0, 20),
      });
    }
  }
  return out;
}

/** One edit as a person types it: a character in or out, a line in or out, at a random place. */
function edit(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const pieces = ["x", "/", "*", "$", "\n", "Disallow: /a\n", "User-agent: *\n", "é", "#"];
  const r = rnd();
  if (r < 0.4)
    return text.slice(0, at) + pieces[Math.floor(rnd() * pieces.length)]! + text.slice(at);
  if (r < 0.8) return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 3));
  const lineEnd = text.indexOf("\n", at);
  return text.slice(0, at) + (lineEnd < 0 ? "" : text.slice(lineEnd + 1));
}

test("grid: an edited file's cells equal a fresh grid's, with matchers and bytes kept", () => {
  const rnd = seededRandom(20250101);
  const all = cases();
  assert.ok(all.length >= 20, `only ${all.length} records`);
  const matchers = new GridMatchers();
  const bytes = new TextBytes();
  let cells = 0;
  let reused = 0;
  for (const [n, c] of all.entries()) {
    let text = c.text;
    const tokens = c.agents.map((a) => readAgentName(a).token);
    let last: RobotsMatcher[] = [];
    for (let k = 0; k < 12; k++) {
      const profile = PROFILES[(n + (k === 11 ? 1 : 0)) % PROFILES.length]!;
      const kept = crawlerRobots(text, profile, bytes);
      assert.deepEqual(bytes.of(text), encodeUtf8(text));
      const fresh = crawlerRobots(text, profile);
      // A matcher kept from the last version is the same object.
      const now = matchers.matchers(kept, tokens);
      reused += now.filter((m, i) => m === last[i]).length;
      last = now;
      const got = computeGrid(kept, c.agents, c.urls, matchers);
      const want = computeGrid(fresh, c.agents, c.urls);
      assert.deepEqual(got, want, `record ${n}, edit ${k}, ${profile}`);
      cells += got.length;
      text = edit(text, rnd);
    }
  }
  assert.ok(cells >= 1000, `${cells} cells`);
  assert.ok(reused > 0, "no matcher was kept across an edit");
});

test("bytes: kept across edits, always the text's UTF-8", () => {
  const rnd = seededRandom(7);
  const bytes = new TextBytes();
  let text = "User-agent: *\nDisallow: /private/\n";
  for (let i = 0; i < 3000; i++) {
    text = edit(text, rnd);
    if (i === 1500) text = text.replace(/é/g, "");
    assert.deepEqual(bytes.of(text), encodeUtf8(text), `edit ${i}`);
  }
  assert.deepEqual(bytes.of(""), encodeUtf8(""));
  assert.deepEqual(bytes.of("a".repeat(10_000)), encodeUtf8("a".repeat(10_000)));
});
