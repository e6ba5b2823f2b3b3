/**
 * `robots audit` as users run it: exit statuses, the exact JSON shape, stdin
 * and gzip, hostile log text escaped on the terminal, git:<path> in a real
 * repository, --verify with ranges and a loopback DNS server, and the HTML
 * report opened in Chromium.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { AUDIT_ROBOTS, GOOGLE_RANGES, generateLog, requestLine } from "./helpers/access-log.js";
import { launchBrowser, outsideRequests } from "./helpers/chromium.js";
import { startDnsServer } from "./helpers/dns-server.js";
import { robots } from "./helpers/in-process.js";
import { robots as robotsProcess } from "./helpers/subprocess.js";

const dir = mkdtempSync(path.join(tmpdir(), "robots-audit-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const robotsFile = path.join(dir, "robots.txt");
writeFileSync(robotsFile, AUDIT_ROBOTS);
const log = generateLog(1500, 3);
const logFile = path.join(dir, "access.log");
writeFileSync(logFile, `${log.lines.join("\n")}\n`);
const rangesFile = path.join(dir, "googlebot.json");
writeFileSync(rangesFile, JSON.stringify(GOOGLE_RANGES));

describe("robots audit", () => {
  test("--format json: exactly the documented shape; exit 1 when a crawler broke a rule", async () => {
    const r = await robots(["audit", logFile, "--robots", robotsFile, "--format", "json"]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ["lines", "malformed", "crawlers", "unverifiedClaims"]);
    assert.equal(out.lines, log.lines.length);
    assert.equal(out.malformed, log.malformed);
    for (const c of out.crawlers) {
      assert.deepEqual(Object.keys(c), [
        "name",
        "requests",
        "disallowed",
        "delayBreaches",
        "verified",
        "unverified",
        "examples",
      ]);
      for (const e of c.examples)
        assert.deepEqual(Object.keys(e), ["logLine", "url", "robotsLine"]);
    }
    const gpt = out.crawlers.find((c: { name: string }) => c.name === "GPTBot");
    assert.equal(gpt.disallowed, log.truth.get("GPTBot")!.disallowed);
  });

  test("exit 0 when every crawler obeyed; stdin and gzip read alike", async () => {
    const ok = [
      requestLine("192.0.2.1", Date.UTC(2026, 10, 2), "/public/a", "CCBot/2.0", false),
      requestLine("192.0.2.1", Date.UTC(2026, 10, 2, 1), "/public/b", "CCBot/2.0", true),
    ].join("\n");
    const gz = path.join(dir, "ok.log.gz");
    writeFileSync(gz, gzipSync(ok));
    const viaStdin = await robots(["audit", "-", "--robots", robotsFile, "--format", "json"], {
      stdin: ok,
    });
    const viaGzip = await robots(["audit", gz, "--robots", robotsFile, "--format", "json"]);
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    assert.equal(viaGzip.code, 0, viaGzip.stderr);
    assert.equal(viaStdin.stdout, viaGzip.stdout);
    assert.equal(JSON.parse(viaGzip.stdout).crawlers[0].requests, 2);
  });

  test("exit 2 for an unreadable log, robots.txt or ranges file, and for wrong options", async () => {
    for (const args of [
      ["audit", path.join(dir, "missing.log"), "--robots", robotsFile],
      ["audit", logFile, "--robots", path.join(dir, "missing.txt")],
      ["audit", logFile],
      ["audit", "--robots", robotsFile],
      ["audit", logFile, "--robots", robotsFile, "--verify", "whois"],
      ["audit", logFile, "--robots", robotsFile, "--verify", `ranges:${robotsFile}`],
      ["audit", logFile, "--robots", robotsFile, "--format", "csv"],
      ["audit", logFile, "--robots", robotsFile, "--field", "colour=x"],
      ["audit", logFile, "--robots", "git:no/such/robots.txt"],
      ["audit", "-", "--robots", "-"],
    ]) {
      // In-process: these are errors main reports, not crashes of a process.
      // git:no/such/robots.txt is read where this process runs, a repository
      // or not: either way no commit holds it.
      const r = await robots(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(!r.stderr.includes("    at "), "no stack trace");
    }
  });

  test("text: a table by disallowed requests; log text escaped on the terminal", async () => {
    const hostile = path.join(dir, "hostile.log");
    const ua = "EvilBot/1.0 \u001b]0;owned\u0007\u001b[2J";
    writeFileSync(
      hostile,
      [
        requestLine("192.0.2.9", Date.UTC(2026, 10, 2), "/private/\u001b[31mred", ua, false),
        requestLine("192.0.2.9", Date.UTC(2026, 10, 2, 1), "/private/\u202egnp.exe", ua, true),
        "\u001b[2Jnot a log line",
      ].join("\n"),
    );
    const r = await robots(["audit", hostile, logFile, "--robots", robotsFile]);
    assert.equal(r.code, 1);
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/.test(r.stdout), "no raw controls");
    assert.ok(r.stdout.includes("\\x1b[31mred"));
    assert.ok(r.stdout.includes(`malformed: ${hostile}:3`));
    const rows = r.stdout.split("\n").filter((l) => /^\S+\s+\d+\s+\d+/.test(l));
    const disallowed = rows.map((l) => Number(l.trim().split(/\s+/)[2]));
    assert.deepEqual(
      disallowed,
      [...disallowed].sort((a, b) => b - a),
    );
    assert.ok(rows.length >= 4);
  });

  test("--verify ranges: forged Googlebots reported apart", async () => {
    const r = await robots([
      "audit",
      logFile,
      "--robots",
      robotsFile,
      "--verify",
      `ranges:Google=${rangesFile}`,
      "--format",
      "json",
    ]);
    const out = JSON.parse(r.stdout);
    const g = out.crawlers.find((c: { name: string }) => c.name === "Googlebot");
    assert.equal(g.verified, log.truth.get("Googlebot")!.requests);
    const forged = out.unverifiedClaims.find((c: { name: string }) => c.name === "Googlebot");
    assert.equal(forged.unverified, log.forged.requests);
  });

  test("--verify dns --dns-server host:port", async () => {
    const dns = await startDnsServer({
      ptr: { "66.249.66.1": ["crawl-66-249-66-1.googlebot.com"] },
      a: { "crawl-66-249-66-1.googlebot.com": ["66.249.66.1"] },
    });
    try {
      const g = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
      const file = path.join(dir, "dns.log");
      writeFileSync(
        file,
        [
          requestLine("66.249.66.1", Date.UTC(2026, 10, 2), "/", g, false),
          requestLine("203.0.113.5", Date.UTC(2026, 10, 2), "/nogoogle/x", g, false),
        ].join("\n"),
      );
      const r = await robots([
        "audit",
        file,
        "--robots",
        robotsFile,
        "--verify",
        "dns",
        "--dns-server",
        dns.address,
        "--format",
        "json",
      ]);
      assert.equal(r.code, 1, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(
        [out.crawlers[0].name, out.crawlers[0].verified, out.crawlers[0].disallowed],
        ["Googlebot", 1, 0],
      );
      assert.deepEqual(
        [out.unverifiedClaims[0].unverified, out.unverifiedClaims[0].disallowed],
        [1, 1],
      );
    } finally {
      await dns.close();
    }
  });

  test("--robots git:<path>: versions from the repository's history", async () => {
    const repo = path.join(dir, "site");
    mkdirSync(repo);
    const git = (args: string[], date?: string) =>
      execFileSync("git", args, {
        cwd: repo,
        env: {
          ...process.env,
          ...(date ? { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } : {}),
        },
      });
    git(["init", "-q"]);
    git(["config", "user.email", "t@example.com"]);
    git(["config", "user.name", "t"]);
    writeFileSync(path.join(repo, "robots.txt"), "User-agent: *\nDisallow:\n");
    git(["add", "robots.txt"]);
    git(["commit", "-q", "-m", "open"], "2026-10-01T00:00:00Z");
    writeFileSync(path.join(repo, "robots.txt"), "User-agent: *\nDisallow: /x/\n");
    git(["commit", "-q", "-am", "close /x/"], "2026-11-01T00:00:00Z");
    const file = path.join(repo, "access.log");
    writeFileSync(
      file,
      [
        requestLine("192.0.2.1", Date.UTC(2026, 10, 1, 6), "/x/early", "LateBot/1.0", false),
        requestLine("192.0.2.1", Date.UTC(2026, 10, 3), "/x/late", "LateBot/1.0", false),
      ].join("\n"),
    );
    const r = await robotsProcess(["audit", "access.log", "--robots", "git:robots.txt"], {
      cwd: repo,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stdout.includes("log line 2 /x/late disallowed by robots.txt line 2 in "));
    assert.ok(
      !r.stdout.includes("/x/early"),
      "within 24 h of the change: the old copy may be in use",
    );
  });

  test("--format html --output: a self-contained page with the chart, opened in Chromium", async () => {
    const out = path.join(dir, "report.html");
    const hostileUa = "EvilBot/1.0 <script>alert(1)</script>";
    const file = path.join(dir, "html.log");
    writeFileSync(
      file,
      [
        ...log.lines,
        requestLine(
          "192.0.2.7",
          Date.UTC(2026, 10, 2),
          "/private/<img/src=x/onerror=alert(2)>",
          hostileUa,
          false,
        ),
      ].join("\n"),
    );
    const r = await robots([
      "audit",
      file,
      "--robots",
      robotsFile,
      "--format",
      "html",
      "--output",
      out,
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "");
    const html = readFileSync(out, "utf8");
    assert.ok(!html.includes("<script"), "log text is escaped");
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(pathToFileURL(out).href);
      const series = await page
        .locator("svg polyline.series")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
      assert.ok(series.includes("GPTBot"), series.join(", "));
      assert.ok((await page.locator("svg circle.violation").count()) > 0);
      // The hostile URL is shown as text, not made into an element.
      assert.ok(
        (await page.locator("td", { hasText: "<img/src=x/onerror=alert(2)>" }).count()) > 0,
      );
      assert.equal(await page.locator("img, script").count(), 0);
      assert.deepEqual(dialogs, []);
      assert.deepEqual(outsideRequests(browser.requests), []);
    } finally {
      await browser.close();
    }
  });
});
