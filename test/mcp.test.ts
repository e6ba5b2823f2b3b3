/**
 * `robots mcp` driven by the MCP SDK's own client over stdio (the server is
 * `node bin/robots.js mcp`, spawned by StdioClientTransport) against
 * loopback sites: what the tools answer, and what the sites saw.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { html, type Site, startSite, text } from "./helpers/loopback-site.js";
import { CLI } from "./helpers/shared.js";

const ROBOTS = `User-agent: *
Disallow: /private

User-agent: GPTBot
Disallow: /
Content-Usage: train-ai=n
`;

interface Answer {
  readonly isError: boolean;
  readonly summary: string;
  readonly details: unknown;
}

async function connect(args: readonly string[]): Promise<Client> {
  const client = new Client({ name: "robots-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", ...args],
      stderr: "pipe",
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  const textOut = r.content.map((c) => c.text).join("\n");
  const newline = textOut.indexOf("\n");
  const summary = newline < 0 ? textOut : textOut.slice(0, newline);
  let details: unknown = null;
  if (newline >= 0) details = JSON.parse(textOut.slice(newline + 1));
  return { isError: r.isError === true, summary, details };
}

describe("robots mcp: tools over stdio", () => {
  let site: Site;
  let down: Site;
  let mcp: Client;
  before(async () => {
    site = await startSite(
      (_req, res) => text(res, ROBOTS),
      (req, res) => {
        if (req.url === "/article") {
          res.writeHead(200, {
            "content-type": "text/html",
            "x-robots-tag": "noarchive, otherbot: noindex",
            "content-usage": "search=y",
          });
          res.end(`<html><head><meta name="robots" content="nofollow"></head><body></body></html>`);
        } else {
          html(res, "<p>page</p>");
        }
      },
    );
    down = await startSite((_req, res) => text(res, "down", 503));
    mcp = await connect(["--agent", "ExampleAgent", "--allow-private-origins"]);
  });
  after(async () => {
    await mcp?.close();
    await Promise.all([site, down].map((s) => s?.close()));
  });

  it("lists its four tools", async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "check_url",
      "explain",
      "page_rules",
      "usage_preferences",
    ]);
  });

  it("check_url: verdict, deciding line and rule, and where the rules came from", async () => {
    const first = await call(mcp, "check_url", { url: `${site.origin}/private/a` });
    assert.equal(first.isError, false);
    assert.match(
      first.summary,
      /^disallowed for ExampleAgent: .*\/private\/a \(line 2: Disallow: \/private\)$/,
    );
    const d = first.details as { allowed: boolean; line: number; source: string; rule: unknown };
    assert.deepEqual([d.allowed, d.line, d.source], [false, 2, "fetched"]);
    assert.deepEqual(d.rule, { kind: "disallow", value: "/private" });
    const again = await call(mcp, "check_url", { url: `${site.origin}/open` });
    assert.equal((again.details as { source: string }).source, "cached");
    assert.equal((again.details as { allowed: boolean }).allowed, true);
    // Another agent, same origin: its own group, the same copy of robots.txt.
    const gpt = await call(mcp, "check_url", { url: `${site.origin}/open`, agent: "GPTBot" });
    assert.equal((gpt.details as { allowed: boolean }).allowed, false);
    assert.equal((gpt.details as { line: number }).line, 5);
    const unreachable = await call(mcp, "check_url", { url: `${down.origin}/x` });
    assert.equal((unreachable.details as { source: string }).source, "unreachable");
    assert.equal((unreachable.details as { allowed: boolean }).allowed, false);
  });

  it("explain: a robots.txt as text, or fetched from a URL", async () => {
    const given = await call(mcp, "explain", {
      robots_txt: "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
      urls: ["/a/b/c", "/a/x"],
    });
    const urls = (
      given.details as { urls: { allowed: boolean; line: number; decidedBecause: string }[] }
    ).urls;
    assert.deepEqual(
      urls.map((u) => [u.allowed, u.line]),
      [
        [true, 3],
        [false, 2],
      ],
    );
    assert.ok(urls.every((u) => u.decidedBecause.length > 0));
    const fetched = await call(mcp, "explain", {
      robots_txt_url: `${site.origin}/robots.txt`,
      agent: "GPTBot",
      urls: ["/x"],
    });
    assert.match(fetched.summary, /0 of 1 allowed/);
    const bad = await call(mcp, "explain", { urls: ["/x"] });
    assert.equal(bad.isError, true);
    assert.match(bad.summary, /exactly one of robots_txt/);
  });

  it("page_rules and usage_preferences read the page after robots.txt allows it", async () => {
    const rules = await call(mcp, "page_rules", { url: `${site.origin}/article` });
    assert.match(rules.summary, /^index, nofollow for ExampleAgent/);
    const blocked = await call(mcp, "page_rules", { url: `${site.origin}/private/p` });
    assert.match(blocked.summary, /^not fetched: disallowed/);
    const usage = await call(mcp, "usage_preferences", {
      url: `${site.origin}/article`,
      agent: "ExampleAgent",
    });
    assert.match(usage.summary, /search=y/);
    assert.deepEqual(
      site.pages().filter((p) => p.startsWith("/private")),
      [],
      "nothing disallowed was requested",
    );
    // Every call and agent above shared one robots.txt fetch per origin.
    assert.equal(site.count("/robots.txt"), 1);
    assert.equal(down.count("/robots.txt"), 1);
  });

  it("validates input with clear errors", async () => {
    const agent = await call(mcp, "check_url", { url: `${site.origin}/`, agent: "Bad Bot/1.0" });
    assert.equal(agent.isError, true);
    assert.match(agent.summary, /product token/);
    const scheme = await call(mcp, "check_url", { url: "ftp://example.com/x" });
    assert.equal(scheme.isError, true);
    assert.match(scheme.summary, /ftp/);
  });
});

describe("robots mcp: private origins", () => {
  let site: Site;
  before(async () => {
    site = await startSite((_req, res) => text(res, ROBOTS));
  });
  after(() => site?.close());

  it("refuses loopback origins without --allow-private-origins, sending nothing", async () => {
    const mcp = await connect([]);
    try {
      for (const tool of ["check_url", "page_rules", "usage_preferences"]) {
        const r = await call(mcp, tool, { url: `${site.origin}/x` });
        assert.equal(r.isError, true, tool);
        assert.match(r.summary, /--allow-private-origins/);
      }
      const r = await call(mcp, "explain", { robots_txt_url: `${site.origin}/`, urls: ["/x"] });
      assert.equal(r.isError, true);
      assert.equal(site.seen.length, 0);
    } finally {
      await mcp.close();
    }
  });
});
