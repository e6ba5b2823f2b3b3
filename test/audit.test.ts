/**
 * robots-exclusion/audit: generated logs with a known truth (crawlers,
 * violations, Crawl-delay breaches, forged Googlebots, browsers, IPv6,
 * malformed and hostile lines, gzip), versions from a real git repository
 * and a directory of dated copies, and DNS verification against a loopback
 * DNS server.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { after, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { identifyAgent } from "../src/audit/identify.js";
import { inPrefix, parseIp, parsePrefix } from "../src/audit/ip.js";
import type { LogFormat } from "../src/audit/log-line.js";
import { LogReader } from "../src/audit/log-reader.js";
import { Auditor } from "../src/audit/tally.js";
import { LINE_CAP } from "../src/audit-io/lines.js";
import {
  type AuditResult,
  auditLogs,
  DEFAULT_LOG_FIELDS,
  dirVersions,
  dnsVerifier,
  gitVersions,
  rangesVerifier,
  readRanges,
} from "../src/entries/audit.js";
import {
  AUDIT_ROBOTS,
  GOOGLE_RANGES,
  generateLog,
  HOSTILE,
  requestLine,
} from "./helpers/access-log.js";
import { startDnsServer } from "./helpers/dns-server.js";

const dir = mkdtempSync(path.join(tmpdir(), "robots-audit-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const robots = [{ body: AUDIT_ROBOTS, since: Number.NEGATIVE_INFINITY, label: "robots.txt" }];

function row(result: AuditResult, name: string) {
  const r = result.crawlers.find((c) => c.name === name);
  assert.ok(r, `no row for ${name}: ${result.crawlers.map((c) => c.name).join(", ")}`);
  return r;
}

describe("auditLogs over a generated log", () => {
  const log = generateLog(3000, 7);
  const file = path.join(dir, "access.log");
  writeFileSync(file, `${log.lines.join("\n")}\n`);
  writeFileSync(`${file}.gz`, gzipSync(`${log.lines.join("\r\n")}\r\n`));

  test("counts requests, violations and delay breaches per crawler as generated", async () => {
    const result = await auditLogs([file], { robots });
    assert.equal(result.lines, log.lines.length);
    assert.equal(result.malformed, log.malformed);
    assert.ok(log.malformed >= 5);
    for (const [name, truth] of log.truth) {
      const r = row(result, name);
      // Without verification the forged Googlebots count as Googlebot.
      const extra = name === "Googlebot" ? log.forged : { requests: 0, disallowed: 0 };
      assert.equal(r.requests, truth.requests + extra.requests, name);
      assert.equal(r.disallowed, truth.disallowed + extra.disallowed, name);
      assert.equal(r.delayBreaches, truth.delayBreaches, name);
      assert.equal(r.verified + r.unverified, 0);
      assert.ok(r.examples.length > 0 && r.examples.length <= 5);
    }
    assert.ok(log.truth.get("bingbot")!.delayBreaches > 0);
    assert.equal(row(result, "Googlebot").delayBreaches, 0, "Googlebot's group has no Crawl-delay");
    assert.deepEqual(result.unverifiedClaims, []);
    // Sorted by disallowed requests; browsers left out.
    const d = result.crawlers.map((c) => c.disallowed);
    assert.deepEqual(
      d,
      [...d].sort((a, b) => b - a),
    );
    assert.equal(result.crawlers.length, log.truth.size);
  });

  test("each example names its log line and the deciding robots.txt line", async () => {
    const result = await auditLogs([file], { robots });
    for (const c of result.crawlers) {
      for (const e of c.examples) {
        const line = log.lines.concat().filter((_, i) => i + 1 === e.logLine)[0];
        assert.ok(line?.includes(e.url), `${c.name} line ${e.logLine}`);
        const want = c.name === "GPTBot" ? 6 : c.name === "Googlebot" ? 9 : 2;
        assert.equal(e.robotsLine, want, c.name);
      }
    }
  });

  test("a gzip file with CRLF line ends gives the same report", async () => {
    assert.deepEqual(await auditLogs([`${file}.gz`], { robots }), {
      ...(await auditLogs([file], { robots })),
      malformedLines: (await auditLogs([file], { robots })).malformedLines.map((m) => ({
        ...m,
        file: `${file}.gz`,
      })),
    });
  });

  test("all: browsers are counted too", async () => {
    const result = await auditLogs([file], { robots, all: true });
    const total = result.crawlers.reduce((s, c) => s + c.requests, 0);
    assert.equal(total, log.lines.length - log.malformed);
    assert.ok(log.browsers > 0);
  });

  test("published ranges: forged Googlebots are reported apart, IPv6 included", async () => {
    const { prefixes } = readRanges(GOOGLE_RANGES);
    const result = await auditLogs([file], {
      robots,
      verify: rangesVerifier([{ prefixes, operators: ["Google"] }]),
    });
    const g = row(result, "Googlebot");
    const truth = log.truth.get("Googlebot")!;
    assert.equal(g.requests, truth.requests);
    assert.equal(g.verified, truth.requests);
    assert.equal(g.disallowed, truth.disallowed);
    assert.equal(g.unverified, log.forged.requests);
    const forged = result.unverifiedClaims.find((c) => c.name === "Googlebot");
    assert.equal(forged?.requests, log.forged.requests);
    assert.equal(forged?.unverified, log.forged.requests);
    assert.equal(forged?.disallowed, log.forged.disallowed);
    // Ranges for Google say nothing about GPTBot.
    assert.equal(row(result, "GPTBot").verified + row(result, "GPTBot").unverified, 0);
  });

  test("malformed lines are named by file and line, the first ten only", async () => {
    const result = await auditLogs([file], { robots });
    assert.equal(result.malformedLines.length, Math.min(10, log.malformed));
    for (const m of result.malformedLines) {
      assert.equal(m.file, file);
      assert.ok(HOSTILE.includes(log.lines[m.line - 1]!), String(m.line));
    }
  });
});

/** One line read as the audit reads it: its fields, or null when it is no log record. */
function readLogLine(line: string, format: LogFormat) {
  const reader = new LogReader(new Auditor(robots), format, DEFAULT_LOG_FIELDS);
  const bytes = new TextEncoder().encode(line);
  if (!reader.read(bytes, 0, bytes.length)) return null;
  return { ip: reader.ip(), time: reader.time, url: reader.url(), userAgent: reader.userAgent() };
}

describe("reading lines", () => {
  test("Combined, Common and JSON Lines records", () => {
    const clf = readLogLine(
      '::1 - - [02/Nov/2026:10:00:00 +0100] "GET /a?b HTTP/1.1" 200 5',
      "auto",
    );
    assert.deepEqual(clf, {
      ip: "::1",
      time: Date.UTC(2026, 10, 2, 9),
      url: "/a?b",
      userAgent: "",
    });
    const escaped = readLogLine(
      '1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "GET /q HTTP/1.1" 200 5 "-" "A \\"quoted\\" bot/1"',
      "clf",
    );
    assert.equal(escaped?.userAgent, 'A \\"quoted\\" bot/1');
    const nginx = readLogLine(
      JSON.stringify({
        remote_addr: "1.2.3.4",
        request: "GET /n HTTP/2.0",
        time_iso8601: "2026-11-02T00:00:00+00:00",
        http_user_agent: "x",
      }),
      "auto",
    );
    assert.deepEqual(nginx, {
      ip: "1.2.3.4",
      time: Date.UTC(2026, 10, 2),
      url: "/n",
      userAgent: "x",
    });
    const nanos = readLogLine(
      JSON.stringify({
        ClientIP: "1.2.3.4",
        ClientRequestURI: "/",
        EdgeStartTimestamp: 1793577600000000000,
      }),
      "json",
    );
    assert.equal(nanos?.time, 1793577600000);
    // The target is the request's second word, escapes and all; an unclosed request is none.
    const line = (request: string) =>
      readLogLine(`1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "${request}" 200 5 "-" "x"`, "clf");
    assert.equal(line("GET /a\\ b HTTP/1.1")?.url, "/a\\");
    assert.equal(line('GET /q\\"x HTTP/1.1')?.url, '/q\\"x');
    assert.equal(line("/only")?.url, "/only");
    assert.equal(line("GET /two")?.url, "/two");
    assert.equal(line("GET - HTTP/1.1"), null);
    assert.equal(readLogLine('1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "GET /a\\', "clf"), null);
    // A `]` inside the time ends it early: no time, no record.
    assert.equal(
      readLogLine('1.2.3.4 - - [02/Nov/2026:10]00:00 +0000] "GET /a" 200 5', "clf"),
      null,
    );
    // The overlong one is refused by the line reader (LINE_CAP), tested above.
    for (const h of HOSTILE.filter((l) => l.length < LINE_CAP)) {
      assert.equal(readLogLine(h, "auto"), null, h);
    }
  });

  test("times read one after another: same minute, other seconds, zone, day or bad bytes", () => {
    const reader = new LogReader(new Auditor(robots), "clf", DEFAULT_LOG_FIELDS);
    const cases: [string, number][] = [
      ["02/Nov/2026:10:00:00 +0000", Date.UTC(2026, 10, 2, 10)],
      ["02/Nov/2026:10:00:59 +0000", Date.UTC(2026, 10, 2, 10, 0, 59)],
      ["02/Nov/2026:10:00:5x +0000", Number.NaN],
      ["02/Nov/2026:10:00:07 -0130", Date.UTC(2026, 10, 2, 11, 30, 7)],
      ["02/Nov/2026:10:01:07 -0130", Date.UTC(2026, 10, 2, 11, 31, 7)],
      ["02/Nov/2026:10:01:08 +0130", Date.UTC(2026, 10, 2, 8, 31, 8)],
      ["02/Nov/2026:10:01:07 -013x", Number.NaN],
      ["02/Nov/2026:1x:01:08 -0130", Number.NaN],
      ["02/Nov/2026:1x:01:09 -0130", Number.NaN],
      ["03/Nov/2026:10:01:09 -0130", Date.UTC(2026, 10, 3, 11, 31, 9)],
      ["03/Nox/2026:10:01:09 -0130", Number.NaN],
    ];
    const text = cases.map(([t]) => `1.2.3.4 - - [${t}] "GET /a HTTP/1.1" 200 5 "-" "x"`);
    const bytes = Buffer.from(text.join("\n"));
    let start = 0;
    for (const [i, line] of text.entries()) {
      const end = start + Buffer.byteLength(line);
      const read = reader.read(bytes, start, end);
      // A line whose time is no CLF time is no record.
      assert.equal(read, !Number.isNaN(cases[i]![1]), line);
      if (read) assert.equal(reader.time, cases[i]![1], line);
      start = end + 1;
    }
  });

  test("a stream without line ends is read in bounded memory, as malformed lines", async () => {
    const chunk = "x".repeat(1 << 20);
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < 64; i++) yield chunk;
      })(),
    );
    const result = await auditLogs([{ stream, label: "endless" }], { robots });
    assert.equal(result.lines, 1);
    assert.equal(result.malformed, 1);
  });

  test("a log cut into chunks of any size reads the same, split lines and characters included", async () => {
    const log = generateLog(400, 5, { jsonShare: 0.3 });
    const text = `${log.lines.join("\r\n")}\r\n1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "GET /café/€ HTTP/1.1" 200 5 "-" "GPTBot"`;
    const bytes = Buffer.from(text);
    const chunked = (size: number) =>
      Readable.from(
        (function* () {
          for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
        })(),
      );
    const options = { robots, examples: 10_000 };
    const whole = await auditLogs([{ stream: chunked(bytes.length), label: "log" }], options);
    assert.equal(whole.lines, log.lines.length + 1);
    assert.ok(whole.crawlers.some((c) => c.examples.some((e) => e.url === "/café/€")));
    for (const size of [1, 2, 3, 7, 100, 4099]) {
      const result = await auditLogs([{ stream: chunked(size), label: "log" }], options);
      assert.deepEqual(result, whole, `chunks of ${size} bytes`);
    }
  });

  test("LINE_CAP counts bytes: a line of 40,000 two-byte characters is malformed", async () => {
    const long = `1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "GET /${"é".repeat(40_000)} HTTP/1.1" 200 5 "-" "GPTBot"`;
    assert.ok(long.length < LINE_CAP && Buffer.byteLength(long) > LINE_CAP);
    const stream = Readable.from([Buffer.from(`${long}\n${long.slice(0, 100)}\n`)]);
    const result = await auditLogs([{ stream, label: "long" }], { robots });
    assert.equal(result.lines, 2);
    assert.equal(result.malformed, 2);
  });

  test("a User-Agent seen before is still read only to its closing quote", async () => {
    const line = (agentField: string) =>
      `1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" ${agentField}`;
    const lines = [
      line('"GPTBot/1"'),
      line('"GPTBot/1"'),
      // The field ends at its first quote, whatever follows on the line.
      line('"SomeNewBot/1" "GPTBot/1"'),
      // An escaped quote does not end it: the catalogue's GPTBot is named in it.
      line('"SomeNewBot/1 \\"GPTBot/1"'),
      line('"SomeNewBot/1 \\"GPTBot/1"'),
    ];
    const stream = Readable.from([Buffer.from(`${lines.join("\n")}\n`)]);
    const result = await auditLogs([{ stream, label: "agents" }], { robots });
    assert.deepEqual(
      result.crawlers.map((c) => [c.name, c.requests]),
      [
        ["GPTBot", 4],
        ["SomeNewBot", 1],
      ],
    );
  });

  test("User-Agent headers: catalogue crawlers, other bots, browsers", () => {
    assert.equal(
      identifyAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
        .name,
      "Googlebot",
    );
    assert.equal(identifyAgent("Googlebot-Image/1.0").name, "Googlebot-Image");
    assert.equal(identifyAgent("Mozilla/5.0 (compatible; SemrushBot/7~bl)").kind, "catalogue");
    assert.deepEqual(identifyAgent("NewThingBot/1.0"), {
      name: "NewThingBot",
      token: "NewThingBot",
      kind: "bot",
    });
    assert.equal(
      identifyAgent("Mozilla/5.0 (X11; Linux x86_64) Chrome/131 Safari/537.36").kind,
      "browser",
    );
    // A URL that names a crawler's page is not a claim to be it.
    assert.notEqual(identifyAgent("Mozilla/5.0 (+http://example.com/googlebot)").kind, "catalogue");
  });
});

describe("IP addresses and prefixes", () => {
  test("IPv4 and IPv6, mapped IPv4, in and out of prefixes", () => {
    const p4 = parsePrefix("66.249.64.0/19")!;
    const p6 = parsePrefix("2001:4860:4801:10::/64")!;
    assert.ok(inPrefix(parseIp("66.249.95.255")!, p4));
    assert.ok(!inPrefix(parseIp("66.249.96.0")!, p4));
    assert.ok(inPrefix(parseIp("::ffff:66.249.66.1")!, p4));
    assert.ok(inPrefix(parseIp("2001:4860:4801:10:ffff:ffff:ffff:ffff")!, p6));
    assert.ok(!inPrefix(parseIp("2001:4860:4801:11::")!, p6));
    assert.ok(inPrefix(parseIp("1.2.3.4")!, parsePrefix("0.0.0.0/0")!));
    assert.ok(
      !inPrefix(parseIp("2001:db8::1")!, parsePrefix("0.0.0.0/0")!),
      "an IPv4 prefix holds no IPv6 address",
    );
    assert.deepEqual([...parseIp("1::8")!.slice(0, 4)], [0, 1, 0, 0]);
    for (const bad of [
      "",
      "1.2.3",
      "1.2.3.256",
      "01.2.3.4",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      ":1",
      "1:",
      "g::",
      "1.2.3.4.5",
      "::1.2.3",
    ]) {
      assert.equal(parseIp(bad), null, bad);
    }
    for (const bad of ["1.2.3.4/33", "::/129", "1.2.3.4/", "1.2.3.4/x", "/8"])
      assert.equal(parsePrefix(bad), null, bad);
    assert.equal(
      readRanges({ prefixes: [{ ipv4Prefix: "bad" }, { ipv6Prefix: "::/0" }] }).skipped,
      1,
    );
  });
});

function git(cwd: string, args: string[], date?: string): string {
  const env =
    date === undefined
      ? process.env
      : { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

describe("robots.txt versions over time", () => {
  const repo = path.join(dir, "repo");
  mkdirSync(path.join(repo, "public"), { recursive: true });
  git(repo, ["init", "-q"]);
  git(repo, ["config", "user.email", "t@example.com"]);
  git(repo, ["config", "user.name", "t"]);
  const commit = (body: string, date: string) => {
    writeFileSync(path.join(repo, "public/robots.txt"), body);
    git(repo, ["add", "public/robots.txt"]);
    git(repo, ["commit", "-q", "-m", "robots", "--date", date], date);
  };
  commit("User-agent: *\nDisallow: /a/\n", "2026-11-01T00:00:00Z");
  commit("User-agent: *\nDisallow: /a/\nDisallow: /b/\n", "2026-11-03T00:00:00Z");
  commit("User-agent: *\nDisallow: /b/\n", "2026-11-05T00:00:00Z");
  const ua = "ExampleBot/1.0";
  const at = (iso: string, url: string) =>
    requestLine("192.0.2.1", Date.parse(iso), url, ua, false);
  const lines = [
    at("2026-11-01T12:00:00Z", "/a/1"), // within 24 h of the first version: unknown before it
    at("2026-11-02T12:00:00Z", "/a/2"), // disallowed by the first version
    at("2026-11-03T12:00:00Z", "/b/1"), // the second says no, the first (cached up to 24 h) said yes
    at("2026-11-04T12:00:00Z", "/b/2"), // only the second in force: disallowed
    at("2026-11-05T12:00:00Z", "/a/3"), // the third allows it
    at("2026-11-05T12:00:01Z", "/b/3"), // second and third both disallow
  ];

  async function check(versions: Awaited<ReturnType<typeof gitVersions>>) {
    assert.equal(versions.length, 3);
    const log = path.join(dir, "timed.log");
    writeFileSync(log, lines.join("\n"));
    const result = await auditLogs([log], { robots: versions });
    const r = result.crawlers[0]!;
    assert.equal(r.name, "ExampleBot");
    assert.deepEqual(
      r.examples.map((e) => [
        e.logLine,
        e.robotsLine,
        e.robotsVersion === versions[versions.length - 1]!.label
          ? "third"
          : e.robotsVersion === versions[1]!.label
            ? "second"
            : "first",
      ]),
      [
        [2, 2, "first"],
        [4, 3, "second"],
        [6, 2, "third"],
      ],
    );
    assert.equal(r.disallowed, 3);
  }

  test("git:<path>: every committed version from its commit time", async () => {
    const versions = await gitVersions("public/robots.txt", repo);
    assert.deepEqual(
      versions.map((v) => new Date(v.since).toISOString()),
      ["2026-11-01T00:00:00.000Z", "2026-11-03T00:00:00.000Z", "2026-11-05T00:00:00.000Z"],
    );
    await check(versions);
  });

  test("a directory of dated copies", async () => {
    const copies = path.join(dir, "copies");
    mkdirSync(copies);
    for (const [i, d] of [
      "2026-11-01T00:00:00Z",
      "2026-11-03T00:00:00Z",
      "2026-11-05T00:00:00Z",
    ].entries()) {
      writeFileSync(
        path.join(copies, `robots-${d}.txt`),
        git(repo, ["show", `HEAD~${2 - i}:public/robots.txt`]),
      );
    }
    writeFileSync(path.join(copies, "README"), "not a copy");
    await check(await dirVersions(copies));
  });

  test("a file the history deleted allows everything from then on", async () => {
    git(repo, ["rm", "-q", "public/robots.txt"]);
    git(repo, ["commit", "-q", "-m", "gone"], "2026-11-07T00:00:00Z");
    const versions = await gitVersions("public/robots.txt", repo);
    assert.equal(versions.length, 4);
    assert.equal(versions[3]!.body, "");
  });
});

describe("DNS verification against a loopback DNS server", () => {
  test("reverse DNS then forward confirmation, IPv4 and IPv6; forgeries reported apart", async () => {
    const dns = await startDnsServer({
      ptr: {
        "66.249.66.1": ["crawl-66-249-66-1.googlebot.com"],
        "2001:4860:4801:10::1": ["crawl-v6.googlebot.com"],
        // Claims a Google name, but the name does not resolve back.
        "203.0.113.9": ["crawl-66-249-66-1.googlebot.com"],
        // A name outside Google's domains.
        "203.0.113.10": ["googlebot.com.evil.example"],
      },
      a: { "crawl-66-249-66-1.googlebot.com": ["66.249.66.1"] },
      aaaa: { "crawl-v6.googlebot.com": ["2001:4860:4801:10::1"] },
    });
    try {
      const g = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
      const t = Date.UTC(2026, 10, 2);
      const lines = [
        requestLine("66.249.66.1", t, "/nogoogle/x", g, false),
        requestLine("2001:4860:4801:10::1", t + 1000, "/", g, true),
        requestLine("203.0.113.9", t + 2000, "/nogoogle/y", g, false),
        requestLine("203.0.113.10", t + 3000, "/", g, false),
        requestLine("203.0.113.11", t + 4000, "/", g, false), // no PTR at all
        requestLine("192.0.2.1", t + 5000, "/", "GPTBot/1.2", false), // no domains listed: unchecked
        requestLine("66.249.66.1", t + 6000, "/", g, false), // cached answer
      ];
      const log = path.join(dir, "dns.log");
      writeFileSync(log, lines.join("\n"));
      const result = await auditLogs([log], {
        robots,
        verify: dnsVerifier({ servers: [dns.address] }),
      });
      const google = row(result, "Googlebot");
      assert.deepEqual(
        [google.requests, google.verified, google.unverified, google.disallowed],
        [3, 3, 3, 1],
      );
      const forged = result.unverifiedClaims.find((c) => c.name === "Googlebot")!;
      assert.deepEqual([forged.requests, forged.unverified, forged.disallowed], [3, 3, 1]);
      assert.equal(row(result, "GPTBot").verified + row(result, "GPTBot").unverified, 0);
      assert.equal(
        dns.asked.filter((q) => q === "PTR 1.66.249.66.in-addr.arpa").length,
        1,
        "asked once",
      );
      assert.ok(dns.asked.includes("AAAA crawl-v6.googlebot.com"));
      assert.ok(
        !dns.asked.some((q) => q.includes("evil")),
        "names outside the domains are not looked up",
      );
    } finally {
      await dns.close();
    }
  });
});
