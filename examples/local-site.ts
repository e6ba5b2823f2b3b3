/**
 * What the demos share: the example site's robots.txt and a web server on
 * 127.0.0.1 that serves a demo's pages, so that no demo needs the internet.
 */
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** examples/site/robots.txt, the example site's rules. */
export const EXAMPLE_ROBOTS = readFileSync(
  new URL("../../examples/site/robots.txt", import.meta.url),
);

/** A server on 127.0.0.1 at a free port. */
export interface LocalSite {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Stop it, ending open connections. */
  close(): Promise<void>;
}

/** Serve `handler` on 127.0.0.1 at a free port. */
export async function serveLocal(handler: http.RequestListener): Promise<LocalSite> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
