/**
 * The crawler catalogue (src/data/crawler-catalogue.ts) and its import
 * from ai.robots.txt (scripts/import-ai-robots.ts): the committed file is
 * what the import makes of ../shared/reference/ai-robots-txt/robots.json,
 * byte for byte; every token is what the parser reads from the name
 * (docs/protocol.md#groups); the names robots.json gives that are not tokens are said
 * so; a newer robots.json is imported deterministically and its new names
 * are flagged for review.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import {
  CATALOGUE_PATH,
  guessCategory,
  importCatalogue,
  normaliseRespect,
  readOperator,
} from "../scripts/import-ai-robots.js";
import { CRAWLER_CATEGORIES, CRAWLERS } from "../src/data/crawlers.js";
import { isValidProductToken } from "../src/match/agent-token.js";
import { compileMatcher } from "../src/match/compile.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { asciiLower, leadingProductToken } from "../src/protocol/product-token.js";
import { tokenFindings } from "../src/report/crawler-tokens.js";
import { REPO_ROOT, SHARED_DIR } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

const REFERENCE = path.join(SHARED_DIR, "reference/ai-robots-txt");
const ROBOTS_JSON = path.join(REFERENCE, "robots.json");
const hasReference = existsSync(ROBOTS_JSON);
const skipReference = hasReference ? false : "../shared/reference/ai-robots-txt is absent";
/** The ai.robots.txt commit the committed catalogue was imported from (its README). */
const SOURCE = ["--commit", "738c80df", "--date", "2026-08-22"];

const tmp = mkdtempSync(path.join(tmpdir(), "catalogue-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Does `note` have five words in a row that `text` also has (ignoring case)? */
function sharesFiveWords(note: string, text: string): boolean {
  const words = note.toLowerCase().split(/\s+/);
  const lower = text.toLowerCase();
  for (let i = 0; i + 5 <= words.length; i++) {
    if (lower.includes(words.slice(i, i + 5).join(" "))) return true;
  }
  return false;
}

const IMPORT_SCRIPT = path.join(REPO_ROOT, "dist/scripts/import-ai-robots.js");
const runImport = (args: readonly string[]) => run([process.execPath, IMPORT_SCRIPT, ...args]);

describe("the import reproduces the committed catalogue", { skip: skipReference }, () => {
  test("the script, run on the shared robots.json, writes the committed file byte for byte", async () => {
    const out = path.join(tmp, "catalogue.ts");
    const r = await runImport([ROBOTS_JSON, ...SOURCE, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(out, "utf8"), readFileSync(CATALOGUE_PATH, "utf8"));
    // Every robots.json name is curated: nothing guessed, nothing stale.
    assert.doesNotMatch(r.stderr, /not curated|no longer listed|not readable/, r.stderr);
    const check = await runImport([ROBOTS_JSON, ...SOURCE, "--check"]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, /is up to date/);
  });

  test("the header credits ai.robots.txt, its commit and its MIT licence", () => {
    const text = readFileSync(CATALOGUE_PATH, "utf8");
    assert.match(text, /https:\/\/github\.com\/ai-robots-txt\/ai\.robots\.txt, commit 738c80df/);
    const licence = readFileSync(path.join(REFERENCE, "LICENSE"), "utf8");
    for (const line of licence.split("\n").filter((l) => l.trim() !== "")) {
      assert.ok(text.includes(` * ${line.trimEnd()}`), line);
    }
  });

  test("every robots.json name is in the catalogue, with its respect field normalised", () => {
    const listed = JSON.parse(readFileSync(ROBOTS_JSON, "utf8")) as Record<
      string,
      { respect: string; description: string }
    >;
    assert.ok(sharesFiveWords("Fetches The Page when asked", "it fetches the page when asked."));
    const byName = new Map(CRAWLERS.map((c) => [c.name, c]));
    for (const c of CRAWLERS) for (const alias of c.alsoListedAs ?? []) byName.set(alias, c);
    for (const [name, entry] of Object.entries(listed)) {
      const c = byName.get(name);
      assert.ok(c !== undefined, name);
      assert.notEqual(c.source, "hand-kept", name);
      // One row per crawler: a spelling listed apart is settled in the curation.
      if (c.name !== name || c.alsoListedAs !== undefined) continue;
      const respect = entry.respect.replace(/^\[/, "").toLowerCase();
      const expected = respect.startsWith("yes")
        ? "yes"
        : respect.startsWith("no")
          ? "no"
          : "unclear";
      // Hand-kept search engines may carry their operator's own statement.
      if (c.source === "ai.robots.txt") assert.equal(c.honoursRobotsTxt, expected, name);
      // Our notes are our own: no five words in a row from a robots.json description.
      if (c.note !== undefined) assert.ok(!sharesFiveWords(c.note, entry.description), name);
    }
  });

  test("the names that are not product tokens: what each is read as, said in words", () => {
    const listed = Object.keys(JSON.parse(readFileSync(ROBOTS_JSON, "utf8")) as object);
    const invalid = listed.filter((n) => !isValidProductToken(n));
    // The README of the reference data speaks of about 21.
    assert.ok(invalid.length >= 15 && invalid.length <= 30, String(invalid.length));
    const findings = tokenFindings(CRAWLERS);
    for (const name of invalid) {
      const c = CRAWLERS.find((k) => k.name === name);
      if (c === undefined) {
        // A spelling of a crawler listed under another name: same token.
        const row = CRAWLERS.find((k) => k.alsoListedAs?.includes(name))!;
        assert.equal(asciiLower(leadingProductToken(name)), asciiLower(row.token), name);
        continue;
      }
      assert.notEqual(c.token, name);
      const said = findings.find((f) => f.kind !== "shared" && f.names[0] === name);
      assert.ok(said !== undefined, name);
      assert.match(said.text, new RegExp(`is read as (no token|"${c.token}")`));
    }
    const crawl4ai = findings.find((f) => f.names[0] === "Crawl4AI")!;
    assert.equal(crawl4ai.text, '"Crawl4AI" is read as "Crawl"');
  });

  test("one row per crawler: spellings are folded, conflicting facts settled with a source", () => {
    const seen = new Map<string, string>();
    for (const c of CRAWLERS) {
      // A case variant, a version or a domain of a name is the same crawler.
      const key = asciiLower(c.name).replace(/(\.com|\/[0-9.]+| [0-9.]+)$/, "");
      assert.equal(seen.get(key), undefined, `${c.name} and ${seen.get(key)}`);
      seen.set(key, c.name);
    }
    const row = (n: string) => CRAWLERS.find((c) => c.name === n)!;
    assert.deepEqual(row("Meta-ExternalAgent").alsoListedAs, ["meta-externalagent"]);
    assert.deepEqual(row("Webzio-Extended").alsoListedAs, ["webzio-extended"]);
    const mistral = row("MistralAI-User");
    assert.deepEqual(mistral.alsoListedAs, ["MistralAI-User/1.0"]);
    assert.equal(mistral.honoursRobotsTxt, "yes");
    assert.equal(mistral.honoursSource, "https://docs.mistral.ai/robots");
    assert.equal(
      CRAWLERS.find((c) => c.name === "MistralAI-User/1.0"),
      undefined,
    );
  });
});

describe("the committed catalogue", () => {
  test("each token is what a User-agent line naming the crawler is read as", () => {
    for (const c of CRAWLERS) {
      const robots = parseRobotsTxt(`User-agent: ${c.name}\nDisallow: /\n`);
      assert.equal(robots.groups[0]?.agents[0]?.token, c.token, c.name);
      if (c.token !== "") {
        // The group applies to the crawler by its token, in any case.
        assert.equal(compileMatcher(robots, c.token).check("/").allowed, false, c.name);
        assert.equal(compileMatcher(robots, c.token.toUpperCase()).source, "named", c.name);
      }
    }
  });

  test("sameTokenAs lists exactly the other names read as the same token", () => {
    for (const c of CRAWLERS) {
      const others = CRAWLERS.filter(
        (k) => k !== c && k.token !== "" && asciiLower(k.token) === asciiLower(c.token),
      ).map((k) => k.name);
      assert.deepEqual([...(c.sameTokenAs ?? [])].sort(), others.sort(), c.name);
    }
    const ai2 = CRAWLERS.find((c) => c.name === "AI2Bot")!;
    assert.deepEqual(ai2.sameTokenAs, ["AI2Bot-DeepResearchEval", "Ai2Bot-Dolma"]);
  });

  test("sorted by category, then name; categories and honours from their lists", () => {
    const order = Object.keys(CRAWLER_CATEGORIES);
    for (let i = 1; i < CRAWLERS.length; i++) {
      const a = CRAWLERS[i - 1]!;
      const b = CRAWLERS[i]!;
      const byCategory = order.indexOf(a.category) - order.indexOf(b.category);
      assert.ok(
        byCategory < 0 || (byCategory === 0 && asciiLower(a.name) <= asciiLower(b.name)),
        `${a.name} before ${b.name}`,
      );
    }
    for (const k of order)
      assert.ok(
        CRAWLERS.some((c) => c.category === k),
        k,
      );
  });

  test("the hand-kept search engines stay search crawlers", () => {
    for (const n of ["Googlebot", "bingbot", "Applebot", "DuckDuckBot", "YandexBot"]) {
      assert.equal(CRAWLERS.find((c) => c.name === n)?.category, "search", n);
    }
  });
});

describe("importing a newer robots.json", () => {
  const licence = "MIT License\n\nCopyright (c) someone\n";
  const curation = {
    GPTBot: { category: "ai-training" as const, note: "ours" },
    "Gone-Bot": { category: "ai-search" as const },
  };
  const handKept = [
    {
      name: "Googlebot",
      operator: "Google",
      category: "search" as const,
      honoursRobotsTxt: "yes" as const,
    },
  ];
  const json = {
    GPTBot: { operator: "[OpenAI](https://openai.com)", respect: "Yes", function: "x" },
    "NewAgent/2.0": {
      operator: "Newco, a company that does things",
      respect: "[No](https://example.com/no)",
      function: "AI Assistants",
    },
    Googlebot: { operator: "Google", respect: "Unclear at this time.", function: "x" },
    "9bot": { operator: "Unclear at this time.", respect: "At their discretion", function: "?" },
  };

  test("new names are guessed and flagged, stale curation is listed, merges keep ours", () => {
    const r = importCatalogue({
      robotsJson: JSON.stringify(json),
      license: licence,
      handKept,
      curation,
    });
    assert.deepEqual(r.unreviewed, ["9bot", "NewAgent/2.0"]);
    assert.deepEqual(r.staleCuration, ["Gone-Bot"]);
    const fresh = r.entries.find((e) => e.name === "NewAgent/2.0")!;
    assert.deepEqual(
      [fresh.token, fresh.operator, fresh.category, fresh.honoursRobotsTxt, fresh.unreviewed],
      ["NewAgent", "Newco", "ai-user-triggered", "no", true],
    );
    assert.equal(fresh.honoursSource, "https://example.com/no");
    // A name read as no token is kept and says so.
    const empty = r.entries.find((e) => e.name === "9bot")!;
    assert.equal(empty.token, "");
    assert.match(tokenFindings([empty])[0]!.text, /is read as no token/);
    // The hand-kept entry wins where both list a name; its own honours stays.
    const google = r.entries.find((e) => e.name === "Googlebot")!;
    assert.deepEqual([google.source, google.honoursRobotsTxt], ["both", "yes"]);
    assert.match(r.text, /\(commit not recorded\)/);
  });

  test("spellings of one crawler make one row; a disagreement needs a cited settlement", () => {
    const spellings = {
      "Foo-Bot": { operator: "Foo", respect: "Yes", function: "x" },
      "foo-bot/1.0": { operator: "Foo", respect: "No", function: "x" },
    };
    const base = {
      robotsJson: JSON.stringify(spellings),
      license: licence,
      handKept: [],
      sameCrawler: { "foo-bot/1.0": "Foo-Bot" },
    };
    assert.throws(
      () => importCatalogue({ ...base, curation: { "Foo-Bot": { category: "ai-training" } } }),
      /Foo-Bot \(yes\) and foo-bot\/1\.0 \(no\) disagree on robots\.txt: settle it in the curation/,
    );
    const settled = importCatalogue({
      ...base,
      curation: {
        "Foo-Bot": {
          category: "ai-training",
          honours: { value: "no", source: "https://example.com/foo" },
        },
      },
    });
    assert.deepEqual(
      settled.entries.map((e) => [e.name, e.honoursRobotsTxt, e.honoursSource, e.alsoListedAs]),
      [["Foo-Bot", "no", "https://example.com/foo", ["foo-bot/1.0"]]],
    );
  });

  test("the output does not depend on the order of robots.json", () => {
    const a = importCatalogue({ robotsJson: JSON.stringify(json), license: licence, curation });
    const reversed = Object.fromEntries(Object.entries(json).reverse());
    const b = importCatalogue({ robotsJson: JSON.stringify(reversed), license: licence, curation });
    assert.equal(a.text, b.text);
  });

  test("bad input is a one-line failure of the script, not a stack trace", async () => {
    const bad = path.join(tmp, "robots.json");
    const r1 = await runImport([path.join(tmp, "missing.json")]);
    assert.equal(r1.code, 1);
    assert.match(r1.stderr, /^import failed: /);
    assert.doesNotMatch(r1.stderr, /\n\s+at /);
    writeFileSync(bad, "[1,2]");
    writeFileSync(path.join(tmp, "LICENSE"), "MIT");
    const r2 = await runImport([bad]);
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /robots\.json is not an object/);
  });
});

describe("reading ai.robots.txt's free text", () => {
  test("respect: yes, no or unclear, with the page it cites", () => {
    assert.deepEqual(normaliseRespect("Yes"), { honours: "yes" });
    assert.deepEqual(normaliseRespect("[No](https://a.example/b)"), {
      honours: "no",
      source: "https://a.example/b",
    });
    assert.deepEqual(normaliseRespect("Unclear at this time."), { honours: "unclear" });
    assert.deepEqual(normaliseRespect("At the [discretion](https://x.example) of users"), {
      honours: "unclear",
    });
    assert.deepEqual(normaliseRespect(42), { honours: "unclear" });
    // "Nope" is not "no": only the word itself counts.
    assert.deepEqual(normaliseRespect("Nope"), { honours: "unclear" });
  });

  test("operator: a name from a link, a host, or the words before a description", () => {
    assert.equal(readOperator("[Example Co](https://example.com)"), "Example Co");
    assert.equal(readOperator("https://www.example.org/about"), "example.org");
    assert.equal(readOperator("Unclear at this time."), "unknown");
    assert.equal(readOperator("Acme, a maker of anvils"), "Acme");
    assert.equal(readOperator("Acme that fetches pages for its users"), "Acme");
    assert.equal(readOperator("the company that nobody names in a short way here"), undefined);
  });

  test("a category guessed from the wording, for names not curated yet", () => {
    assert.equal(guessCategory("AI Search Crawlers"), "ai-search");
    assert.equal(guessCategory("AI Coding Agents"), "ai-user-triggered");
    assert.equal(guessCategory("AI Data Scrapers"), "ai-training");
    assert.equal(guessCategory("Live chat support"), "other");
  });
});
