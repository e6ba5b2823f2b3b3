/**
 * Loopback sites for integration tests (crawlee, Playwright, the MCP
 * server): each site records every request it receives with the server's
 * own clock, so tests assert what the site saw (which paths, in which
 * order, how far apart), never how fast anything ran.
 */
import type * as http from "node:http";
import { startServer } from "./fetch-servers.js";

export interface SeenRequest {
  readonly path: string;
  /** Date.now() when the request arrived. */
  readonly at: number;
}

export interface Site {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every request, in arrival order. */
  readonly seen: SeenRequest[];
  /** Requests whose path is exactly `path`. */
  count(path: string): number;
  /** Paths requested other than robots.txt, in arrival order. */
  pages(): string[];
  close(): Promise<void>;
}

/** Answers one request; a handler that never answers makes a timeout. */
export type SiteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A page linking to `links` (hrefs as written). */
export function page(links: readonly string[]): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join("\n");
  return `<!doctype html><html><head><title>t</title></head><body>${anchors}</body></html>`;
}

export function html(res: http.ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
}

export function text(res: http.ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { "content-type": "text/plain" });
  res.end(body);
}

/**
 * A site whose robots.txt is answered by `robots` and whose other paths
 * by `pages` (default: an HTML page linking nowhere). Fails loudly when it
 * cannot listen.
 */
export async function startSite(robots: SiteHandler, pages?: SiteHandler): Promise<Site> {
  const seen: SeenRequest[] = [];
  const server = await startServer((req, res) => {
    const path = req.url ?? "";
    seen.push({ path, at: Date.now() });
    if (path === "/robots.txt") robots(req, res);
    else if (pages !== undefined) pages(req, res);
    else html(res, page([]));
  });
  return {
    origin: server.origin,
    seen,
    count: (p) => seen.filter((r) => r.path === p).length,
    pages: () => seen.filter((r) => r.path !== "/robots.txt").map((r) => r.path),
    close: () => server.close(),
  };
}
