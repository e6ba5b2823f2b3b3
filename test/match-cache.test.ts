/**
 * docs/protocol.md#matching, #deciding-line: a matcher's answers do not depend on its match cache
 * (src/match/match-cache.ts), where checks walk copies of their indexes:
 * not on its limit, not on when it is emptied, not on copies made before
 * later checks built more of the trie. The reference answers come from
 * matchers without a cache, whose checks walk the index's own array, the
 * path the conformance suite measures.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compileMatcher, MatchCache, parseRobotsTxt, RobotsError } from "../src/entries/index.js";

type Answer = [boolean, number];

/** Each URL's verdict and deciding line from a fresh matcher without a cache. */
function reference(body: string, agent: string, urls: readonly string[]): Answer[] {
  const m = compileMatcher(parseRobotsTxt(body), agent);
  return urls.map((u): Answer => [m.isAllowed(u), m.decidingLine(u)]);
}

/** A file of rules under /a/…, /b/…, /c/…, so each check builds nodes of its own. */
function treeBody(): string {
  const lines = ["User-agent: *"];
  for (const top of ["a", "b", "c"]) {
    for (let i = 0; i < 24; i++) {
      lines.push(
        `Disallow: /${top}/${i}/x`,
        `Allow: /${top}/${i}/x/ok`,
        `Disallow: /${top}/*.q${i}$`,
        `Allow: /${top}/*keep${i}z`,
      );
    }
  }
  // A node of few globs (small records, their first segment read from `d`).
  for (let i = 0; i < 4; i++) lines.push(`Disallow: /k/*keep${i}z`, `Disallow: /k/*.z${i}$`);
  return lines.join("\n");
}

const treeUrls: string[] = [];
for (const top of ["a", "b", "c", "d"]) {
  for (const i of [0, 7, 23]) {
    for (const tail of [
      "/x",
      "/x/ok",
      "/x/ok/z",
      "/y",
      "/x.q7",
      "/x.q7/",
      "/x/keep7z",
      "/xkeep23z",
    ]) {
      treeUrls.push(`http://h/${top}/${i}${tail}`);
    }
  }
}
for (const tail of ["/x/keep2z", "/keep3zz", "/keep9z", "/a.z1", "/a.z1/", "/keep0z.z3"]) {
  treeUrls.push(`http://h/k${tail}`);
}

describe("protocol.md#matching: checks through the match cache give the index's own answers", () => {
  test("a copy made before later checks built more nodes: each check right, every order", () => {
    const body = treeBody();
    const want = reference(body, "bot", treeUrls);
    for (const order of [treeUrls, [...treeUrls].reverse()]) {
      const cache = new MatchCache();
      const m = compileMatcher(parseRobotsTxt(body), "bot", { cache });
      // Three rounds: the first builds nodes after the copy its first
      // check made; the later ones walk copies made again.
      for (let round = 0; round < 3; round++) {
        for (const u of order) {
          const i = treeUrls.indexOf(u);
          assert.deepEqual([m.isAllowed(u), m.decidingLine(u)], want[i], `${u} round ${round}`);
        }
      }
      assert.ok(cache.stats().words > 0, "the checks made copies");
    }
  });

  test("matchers sharing one index: a node built by one is met pending in the other's copy", () => {
    const body = treeBody();
    const want = reference(body, "bot", treeUrls);
    const robots = parseRobotsTxt(body);
    // Neither agent is named: both take the `*` group, one index.
    const cache = new MatchCache();
    const first = compileMatcher(robots, "one", { cache });
    const second = compileMatcher(robots, "two", { cache });
    first.isAllowed(treeUrls[0]!);
    first.isAllowed(treeUrls[0]!);
    for (let i = 0; i < treeUrls.length; i++) {
      // `second` builds the nodes of URL i; `first` then meets them.
      const u = treeUrls[i]!;
      assert.deepEqual([second.isAllowed(u), second.decidingLine(u)], want[i], `second ${u}`);
      assert.deepEqual([first.isAllowed(u), first.decidingLine(u)], want[i], `first ${u}`);
    }
  });

  test("a node of many globs: n-grams first needed while walking a copy", () => {
    // 20 globs under `/`, grouped by their rarest character (Q): a first
    // check whose path has no Q passes over the group, so the copy it
    // leaves has the globs' n-grams unknown until a later check needs them.
    const lines = ["User-agent: *"];
    for (let i = 0; i < 20; i++) lines.push(`Disallow: /*Q${i}x`);
    lines.push("Allow: /*Q7xok");
    const body = lines.join("\n");
    const urls = [
      "http://h/zzz",
      "http://h/aQ7x",
      "http://h/aQ7xok",
      "http://h/Q19x",
      "http://h/Q2x",
    ];
    const want = reference(body, "bot", urls);
    assert.deepEqual(want.slice(1), [
      [false, 9],
      [true, 22],
      [false, 21],
      [false, 4],
    ]);
    const m = compileMatcher(parseRobotsTxt(body), "bot", { cache: new MatchCache() });
    for (let round = 0; round < 3; round++) {
      urls.forEach((u, i) => {
        assert.deepEqual([m.isAllowed(u), m.decidingLine(u)], want[i], `${u} round ${round}`);
      });
    }
  });

  test("small limits: copies refused, the area emptied, answers unchanged", () => {
    const bodies = [
      treeBody(),
      "User-agent: *\nDisallow: /p\nAllow: /p/q",
      "User-agent: *\nDisallow: /*.pdf$",
    ];
    const urls = [...treeUrls, "http://h/p/q", "http://h/p", "http://h/a.pdf", "http://h/a.pdfx"];
    const want = bodies.map((b) => reference(b, "bot", urls));
    for (const limit of [16, 300, 1000, 5000]) {
      const cache = new MatchCache({ words: limit });
      const ms = bodies.map((b) => compileMatcher(parseRobotsTxt(b), "bot", { cache }));
      for (let round = 0; round < 4; round++) {
        urls.forEach((u, i) => {
          ms.forEach((m, f) => {
            assert.deepEqual(
              [m.isAllowed(u), m.decidingLine(u)],
              want[f]![i],
              `limit ${limit} ${u}`,
            );
          });
        });
        const s = cache.stats();
        assert.ok(s.length <= limit && s.words <= limit, `area ${s.length} words, limit ${limit}`);
      }
    }
  });
});

describe("protocol.md#matching: a match cache has one owner, who sizes and releases it", () => {
  test("its limit is an integer from 0 to 2^28; anything else names what it got", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 28 + 1, "1000"]) {
      assert.throws(
        () => new MatchCache({ words: bad as number }),
        (e: unknown) =>
          e instanceof RobotsError &&
          e.code === "invalid-option" &&
          e.message ===
            `MatchCache words must be an integer from 0 to ${2 ** 28}, got ${String(bad)}`,
      );
    }
    assert.equal(new MatchCache({ words: 1234 }).stats().limit, 1234);
    assert.equal(new MatchCache().stats().limit, 2 ** 21);
  });

  test("limit 0 copies nothing; clear() releases what it holds and answers stay", () => {
    const body = treeBody();
    const want = reference(body, "bot", treeUrls);
    const none = new MatchCache({ words: 0 });
    const m0 = compileMatcher(parseRobotsTxt(body), "bot", { cache: none });
    treeUrls.forEach((u, i) => {
      assert.deepEqual([m0.isAllowed(u), m0.decidingLine(u)], want[i], u);
    });
    assert.deepEqual([none.stats().words, none.stats().length], [0, 0]);

    const cache = new MatchCache();
    const m = compileMatcher(parseRobotsTxt(body), "bot", { cache });
    for (const u of treeUrls) m.isAllowed(u);
    assert.ok(cache.stats().length > 0);
    cache.clear();
    assert.deepEqual([cache.stats().words, cache.stats().length], [0, 0], "released");
    treeUrls.forEach((u, i) => {
      assert.deepEqual([m.isAllowed(u), m.decidingLine(u)], want[i], u);
    });
    assert.ok(cache.stats().words > 0, "copied again after clear()");
  });

  test("two caches, one index: each matcher walks its own cache's copy", () => {
    const body = treeBody();
    const want = reference(body, "bot", treeUrls);
    const robots = parseRobotsTxt(body);
    const a = new MatchCache();
    const b = new MatchCache({ words: 5000 });
    // Both agents take the `*` group: one index, copied into both caches in turn.
    const ma = compileMatcher(robots, "one", { cache: a });
    const mb = compileMatcher(robots, "two", { cache: b });
    for (let round = 0; round < 3; round++) {
      treeUrls.forEach((u, i) => {
        assert.deepEqual([ma.isAllowed(u), ma.decidingLine(u)], want[i], `a ${u}`);
        assert.deepEqual([mb.isAllowed(u), mb.decidingLine(u)], want[i], `b ${u}`);
      });
    }
    assert.ok(a.stats().words > 0 && b.stats().words > 0, "both caches hold a copy");
  });

  test("indexes in use that do not fit: emptied only once per 16 words of checks without a copy", () => {
    // Many files checked in turn, their copies far more than the limit
    // holds: each emptying must be paid for by checks that walked their
    // own arrays, one per FLUSH_WORDS (16) words the cache held.
    const limit = 4096;
    const cache = new MatchCache({ words: limit });
    const ms = [];
    for (let f = 0; f < 200; f++) {
      const lines = ["User-agent: *"];
      for (let i = 0; i < 6; i++) lines.push(`Disallow: /f${f}/${i}/page`);
      ms.push(compileMatcher(parseRobotsTxt(lines.join("\n")), "bot", { cache }));
    }
    let checks = 0;
    for (let round = 0; round < 30; round++) {
      ms.forEach((m, f) => {
        const u = `http://h/f${f}/${round % 6}/page`;
        assert.deepEqual([m.isAllowed(u), m.decidingLine(u)], [false, (round % 6) + 2], u);
        checks += 2;
      });
    }
    const flushes = cache.stats().flushes;
    // Emptied when a copy of at most limit/16 words does not fit, so the
    // cache held more than 15/16 of the limit each time.
    const most = 1 + Math.floor((checks * 16) / ((limit * 15) / 16));
    assert.ok(flushes >= 1, "the cache was emptied at least once");
    assert.ok(flushes <= most, `${flushes} emptyings for ${checks} checks, at most ${most}`);
  });
});
