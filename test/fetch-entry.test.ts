/**
 * The access layer's structure (its own folders, one way, `node:` only in
 * the Node transport) and the entry for runtimes with a WHATWG `fetch`
 * (robots-exclusion/fetch), run here under Node with the global fetch
 * against real servers on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import * as zlib from "node:zlib";
import { fetchRobotsTxt, RobotsClient } from "../src/entries/fetch.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";
import { REPO_ROOT } from "./helpers/shared.js";

const NODE_TRANSPORT = new Set(["src/fetch/node-transport.ts", "src/fetch/node-decode.ts"]);

/** Relative imports of a source file, resolved to repository paths (.ts). */
function importsOf(file: string): { specs: string[]; files: string[] } {
  const text = readFileSync(path.join(REPO_ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const files = specs
    .filter((s) => s.startsWith("."))
    .map((s) =>
      path
        .relative(REPO_ROOT, path.resolve(path.dirname(path.join(REPO_ROOT, file)), s))
        .replace(/\.js$/, ".ts"),
    );
  return { specs, files };
}

/** Every source file reachable from `entry` by relative imports. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f).files);
  }
  return seen;
}

describe("structure of the access layer", () => {
  it("robots-exclusion/fetch reaches no node: import", () => {
    const files = reachable("src/entries/fetch.ts");
    assert.ok(
      files.has("src/client/robots-client.ts") && files.has("src/fetch/fetch-robots-txt.ts"),
    );
    for (const f of files) {
      const nodeImports = importsOf(f).specs.filter((s) => s.startsWith("node:"));
      assert.deepEqual(nodeImports, [], `${f} imports ${nodeImports.join(", ")}`);
    }
  });

  it("only the Node transport imports node:, and cache/ imports nothing from fetch/ or client/", () => {
    const files = [...reachable("src/entries/node.ts")].filter((f) =>
      /^src\/(client|cache|fetch)\//.test(f),
    );
    assert.ok(files.length >= 12, `found ${files.length}`);
    for (const f of files) {
      const { specs, files: targets } = importsOf(f);
      if (!NODE_TRANSPORT.has(f)) {
        assert.ok(!specs.some((s) => s.startsWith("node:")), `${f} imports node:`);
      }
      if (f.startsWith("src/cache/")) {
        assert.ok(
          !targets.some((t) => /^src\/(fetch|client)\//.test(t)),
          `${f} reaches fetch/ or client/`,
        );
      }
      if (f.startsWith("src/fetch/")) {
        assert.ok(!targets.some((t) => t.startsWith("src/client/")), `${f} reaches client/`);
      }
    }
  });
});

describe("robots-exclusion/fetch under Node (global fetch transport)", () => {
  it("follows redirects, reads gzip and applies the rules", async () => {
    const server = await startServer((req, res) => {
      if (req.url === "/robots.txt") res.writeHead(301, { location: "/real.txt" }).end();
      else
        serveText(zlib.gzipSync("User-agent: *\nDisallow: /private\n"), {
          "content-encoding": "gzip",
        })(req, res);
    });
    try {
      const client = new RobotsClient("FetchBot/1.0");
      assert.equal(await client.isAllowed(`${server.origin}/private/x`), false);
      assert.equal(await client.isAllowed(`${server.origin}/public`), true);
      const r = await client.check(`${server.origin}/private/y`);
      assert.equal(r.line, 2);
      assert.equal(r.source.redirects.length, 1);
      const f = await fetchRobotsTxt(server.origin, { userAgent: "FetchBot/1.0" });
      assert.equal(f.kind, "ok");
      assert.equal(f.kind === "ok" && f.encoding, "gzip");
    } finally {
      await server.close();
    }
  });

  it("a server error is a disallow through the fetch transport too", async () => {
    const server = await startServer((_q, res) => res.writeHead(503).end());
    try {
      const r = await new RobotsClient("FetchBot/1.0").check(`${server.origin}/x`);
      assert.equal(r.allowed, false);
      assert.equal(r.source.basis, "server-error-disallow");
      assert.equal(r.source.serverError?.status, 503);
    } finally {
      await server.close();
    }
  });
});
