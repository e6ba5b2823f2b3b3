/**
 * Real servers on 127.0.0.1 for the access-method tests
 * (no mocked fetch for behaviour that crosses the network). Every server
 * counts its requests and tracks its sockets so close() leaves no handle.
 */
import * as http from "node:http";
import type { LookupFunction } from "node:net";
import * as net from "node:net";

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** Requests for /robots.txt (HTTP servers) or connections (raw servers). */
  readonly hits: () => number;
  /** Request headers seen, in order. */
  readonly requests: http.IncomingHttpHeaders[];
  /** Paths requested, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function track(server: net.Server): Set<net.Socket> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return sockets;
}

async function listen(server: net.Server, host = "127.0.0.1", port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, 2048, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

function closer(server: net.Server, sockets: Set<net.Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/**
 * An HTTP server whose handler sees every request; `host` is a loopback
 * address (default 127.0.0.1), `port` a fixed one (default: any free port).
 */
export async function startServer(
  handler: Handler,
  host = "127.0.0.1",
  port = 0,
): Promise<TestServer> {
  let hits = 0;
  const requests: http.IncomingHttpHeaders[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    hits++;
    requests.push(req.headers);
    paths.push(req.url ?? "");
    handler(req, res);
  });
  return serve(server, () => hits, requests, paths, host, port);
}

/** Listen on 127.0.0.1 and describe the server as a TestServer. */
async function serve(
  server: net.Server,
  hits: () => number,
  requests: TestServer["requests"],
  paths: string[],
  host = "127.0.0.1",
  atPort = 0,
): Promise<TestServer> {
  const sockets = track(server);
  const port = await listen(server, host, atPort);
  return {
    origin: `http://${host}:${port}`,
    port,
    hits,
    requests,
    paths,
    close: closer(server, sockets),
  };
}

/** A TCP server that is not HTTP: `onConnection` gets the raw socket. */
export async function startRawServer(onConnection: (s: net.Socket) => void): Promise<TestServer> {
  let hits = 0;
  const server = net.createServer((s) => {
    hits++;
    s.on("error", () => {});
    onConnection(s);
  });
  return serve(server, () => hits, [], []);
}

/** A port on 127.0.0.1 where nothing listens (connections are refused). */
export async function refusedPort(): Promise<TestServer> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits: () => 0,
    requests: [],
    paths: [],
    close: async () => {},
  };
}

/**
 * A server whose first request is held until `release()` and then answered
 * by `first`; every later request is answered by `rest` at once. It puts one
 * fetch's answer after another's without timing: a test waits for
 * `firstArrived`, lets other fetches run, then releases.
 */
export async function startHeldServer(
  first: Handler,
  rest: Handler,
): Promise<{ site: TestServer; firstArrived: Promise<void>; release: () => void }> {
  let arrived!: () => void;
  let release!: () => void;
  const firstArrived = new Promise<void>((r) => {
    arrived = r;
  });
  const held = new Promise<void>((r) => {
    release = r;
  });
  let requests = 0;
  const site = await startServer((req, res) => {
    if (requests++ > 0) return rest(req, res);
    arrived();
    void held.then(() => first(req, res));
  });
  return { site, firstArrived, release };
}

/** Serve `body` as robots.txt with extra headers. */
export function serveText(
  body: string | Uint8Array,
  headers: http.OutgoingHttpHeaders = {},
): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", ...headers });
    res.end(body);
  };
}

/** Serve `robots` as /robots.txt (text/plain) and every other path with `pages`. */
export function serveRobots(robots: string | Uint8Array, pages: Handler): Handler {
  return (req, res) => {
    if (req.url === "/robots.txt") res.writeHead(200, { "content-type": "text/plain" }).end(robots);
    else pages(req, res);
  };
}

export function serveStatus(status: number, headers: http.OutgoingHttpHeaders = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain", ...headers });
    res.end(`status ${status}\nUser-agent: *\nDisallow: /\n`);
  };
}

/**
 * A DNS lookup that maps every host name to 127.0.0.1, for a transport
 * (createNodeTransport({ lookup })): tests and benches can use many host
 * names on one loopback server, and no query leaves the machine.
 */
export const loopbackLookup: LookupFunction = (_hostname, options, callback) => {
  if ((options as { all?: boolean }).all) {
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: "127.0.0.1", family: 4 },
    ]);
  } else {
    callback(null, "127.0.0.1", 4);
  }
};
