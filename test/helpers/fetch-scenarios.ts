/**
 * The access-method scenarios of docs/protocol.md#access-method, written once and run
 * against every implementation of the contract: the library client
 * (fetch-client.test.ts) and `robots check <url>` as a subprocess
 * (fetch-cli.test.ts). Each scenario starts its own servers, so each has its
 * own origin.
 */
import * as zlib from "node:zlib";
import {
  type Handler,
  refusedPort,
  serveStatus,
  serveText,
  startRawServer,
  startServer,
  type TestServer,
} from "./fetch-servers.js";

export interface Expectation {
  readonly path: string;
  readonly allowed: boolean;
  /** Deciding line (0 when no rule decided). */
  readonly line: number;
}

export interface Scenario {
  readonly name: string;
  /** Start the servers; the first one's origin is checked. */
  start(): Promise<TestServer[]>;
  readonly checks: readonly Expectation[];
  /** Expected SourceState.basis. */
  readonly basis: string;
  /** Expected HTTP status in the source state (null for network failures). */
  readonly status?: number | null;
  /** Expected server-error reason (unreachable) when basis is server-error-*. */
  readonly reason?: string;
  readonly truncated?: boolean;
  /** Redirects followed to the copy in use. */
  readonly redirects?: number;
  /** Requests the origin server must have seen for one check. */
  readonly hits?: number;
}

export const ROBOTS = [
  "User-agent: *", // 1
  "Disallow: /private", // 2
  "Allow: /private/ok", // 3
  "", // 4
  "User-agent: TestBot", // 5
  "Disallow: /testbot-only", // 6
  "Allow: /", // 7
  "",
].join("\n");

/** Checks that hold for ROBOTS and the agent "OtherBot" (falls back to *). */
const RULES_CHECKS: Expectation[] = [
  { path: "/private/x", allowed: false, line: 2 },
  { path: "/private/ok/1", allowed: true, line: 3 },
  { path: "/public", allowed: true, line: 0 },
];

const ALL_ALLOWED: Expectation[] = [
  { path: "/private/x", allowed: true, line: 0 },
  { path: "/", allowed: true, line: 0 },
];

const ALL_DISALLOWED: Expectation[] = [
  { path: "/private/x", allowed: false, line: 0 },
  { path: "/", allowed: false, line: 0 },
];

const one = async (h: Handler): Promise<TestServer[]> => [await startServer(h)];

/** /robots.txt → /hop1 → … → /hopN, which serves `body`. */
function chain(n: number, body: string): Handler {
  return (req, res) => {
    const url = req.url ?? "";
    const k = url === "/robots.txt" ? 0 : Number(/^\/hop(\d+)$/.exec(url)?.[1] ?? -1);
    if (k < 0) {
      res.writeHead(404).end();
    } else if (k < n) {
      res.writeHead(k % 2 === 0 ? 301 : 302, { location: `/hop${k + 1}` }).end();
    } else {
      serveText(body)(req, res);
    }
  };
}

/** 600 KB: a rule before the 500 KiB limit and one after it. */
export function bigBody(): string {
  const head = "User-agent: *\nDisallow: /early\n";
  const filler = `# ${"x".repeat(97)}\n`; // 100 bytes
  const lines = Math.ceil((550 * 1024 - head.length) / filler.length);
  return `${head}${filler.repeat(lines)}Disallow: /late\n${filler.repeat(400)}`;
}

/**
 * Inflates to 200 MB of spaces after a real rule: a client that does not stop
 * at the limit would take 200 MB. Built from concatenated gzip members
 * (RFC 1952 allows them; gunzip reads them as one stream), so making it is
 * instant: one compressed 1 MiB block repeated.
 */
let bombCache: Buffer | undefined;
export function gzipBomb(): Buffer {
  if (bombCache === undefined) {
    const block = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
    const members = [zlib.gzipSync("User-agent: *\nDisallow: /bomb\n")];
    for (let i = 0; i < 200; i++) members.push(block);
    bombCache = Buffer.concat(members);
  }
  return bombCache;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "200 text/plain: the rules apply",
    start: () => one(serveText(ROBOTS)),
    checks: RULES_CHECKS,
    basis: "rules",
    status: 200,
    hits: 1,
  },
  {
    name: "200 served as text/html is still parsed",
    start: () => one(serveText(ROBOTS, { "content-type": "text/html" })),
    checks: RULES_CHECKS,
    basis: "rules",
    status: 200,
  },
  ...[400, 401, 403, 404, 410].map(
    (status): Scenario => ({
      name: `${status}: no robots.txt, everything allowed`,
      start: () => one(serveStatus(status)),
      checks: ALL_ALLOWED,
      basis: "no-robots-txt",
      status,
    }),
  ),
  {
    name: "429: server error, everything disallowed",
    start: () => one(serveStatus(429, { "retry-after": "120" })),
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    status: 429,
    reason: "status",
  },
  ...[500, 502, 503].map(
    (status): Scenario => ({
      name: `${status} with Retry-After: server error, everything disallowed`,
      start: () => one(serveStatus(status, { "retry-after": "30" })),
      checks: ALL_DISALLOWED,
      basis: "server-error-disallow",
      status,
      reason: "status",
    }),
  ),
  {
    name: "redirect chain of 1 hop is followed",
    start: () => one(chain(1, ROBOTS)),
    checks: RULES_CHECKS,
    basis: "rules",
    status: 200,
    redirects: 1,
  },
  {
    name: "redirect chain of 5 hops is followed",
    start: () => one(chain(5, ROBOTS)),
    checks: RULES_CHECKS,
    basis: "rules",
    status: 200,
    redirects: 5,
  },
  {
    name: "redirect chain of 6 hops: as 404, everything allowed",
    start: () => one(chain(6, "User-agent: *\nDisallow: /\n")),
    checks: ALL_ALLOWED,
    basis: "no-robots-txt",
    hits: 6,
  },
  {
    name: "cross-origin redirect: the target's rules apply to the original origin",
    start: async () => {
      const target = await startServer(serveText("User-agent: *\nDisallow: /cross\n"));
      const first = await startServer((_req, res) => {
        res.writeHead(301, { location: `${target.origin}/robots.txt` }).end();
      });
      return [first, target];
    },
    checks: [
      { path: "/cross/x", allowed: false, line: 2 },
      { path: "/private/x", allowed: true, line: 0 },
    ],
    basis: "rules",
    status: 200,
    redirects: 1,
  },
  {
    name: "redirect loop: as 404, everything allowed",
    start: () =>
      one((req, res) => {
        res.writeHead(302, { location: req.url === "/robots.txt" ? "/again" : "/robots.txt" });
        res.end();
      }),
    checks: ALL_ALLOWED,
    basis: "no-robots-txt",
    hits: 2,
  },
  {
    name: "600 KB body: a rule before 500 KiB applies, one after does not",
    start: () => one(serveText(bigBody())),
    checks: [
      { path: "/early/x", allowed: false, line: 2 },
      { path: "/late/x", allowed: true, line: 0 },
    ],
    basis: "rules",
    status: 200,
    truncated: true,
  },
  {
    name: "gzip-encoded body is decoded",
    start: () => one(serveText(zlib.gzipSync(ROBOTS), { "content-encoding": "gzip" })),
    checks: RULES_CHECKS,
    basis: "rules",
    status: 200,
    truncated: false,
  },
  {
    name: "gzip bomb: decoding stops at the limit, the rule before it applies",
    start: () => one(serveText(gzipBomb(), { "content-encoding": "gzip" })),
    checks: [
      { path: "/bomb/x", allowed: false, line: 2 },
      { path: "/other", allowed: true, line: 0 },
    ],
    basis: "rules",
    status: 200,
    truncated: true,
  },
  {
    name: "connection reset mid-body: server error",
    start: () =>
      one((req, res) => {
        res.writeHead(200, { "content-type": "text/plain", "content-length": "10000" });
        res.write("User-agent: *\nAllow: /\n");
        setTimeout(() => req.socket.destroy(), 20);
      }),
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    reason: "reset",
  },
  {
    name: "a response that is not HTTP: server error",
    start: async () => [
      await startRawServer((s) => {
        s.end("SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n");
      }),
    ],
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    status: null,
    reason: "invalid-response",
  },
  {
    name: "refused connection: server error",
    start: async () => [await refusedPort()],
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    status: null,
    reason: "refused",
  },
  {
    name: "a server that never answers: timeout, server error",
    start: async () => [await startRawServer(() => {})],
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    status: null,
    reason: "timeout",
  },
  {
    name: "a body that never ends: total timeout, server error",
    start: () =>
      one((_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("User-agent: *\n");
        const timer = setInterval(() => res.write("# still here\n"), 20);
        res.on("close", () => clearInterval(timer));
      }),
    checks: ALL_DISALLOWED,
    basis: "server-error-disallow",
    reason: "timeout",
  },
];
