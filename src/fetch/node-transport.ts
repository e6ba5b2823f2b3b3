/**
 * The default transport: Node's own http/https. We use them rather than a
 * higher-level client because docs/protocol.md#access-method needs full control of what happens
 * on the wire: redirects are never followed here, the raw (still compressed)
 * body is handed over as a pull stream so the decoded-size limit can stop
 * decompression, and every request can be torn down at once by a signal.
 */

import * as dns from "node:dns";
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction } from "node:net";
import { planDecoding } from "./content-encoding.js";
import { type DecodeState, decodeBody } from "./node-decode.js";
import { countBytes } from "./read-body.js";
import type { Transport, TransportResponse } from "./transport.js";

/** Options of createNodeTransport. */
export interface NodeTransportOptions {
  /**
   * DNS lookup used for every connection (net.connect's `lookup`). Inject one
   * to map host names to addresses yourself, e.g. many test host names to
   * 127.0.0.1 in the load benchmark.
   */
  readonly lookup?: LookupFunction;
  /** TLS: reject certificates that do not verify (default true). */
  readonly rejectUnauthorized?: boolean;
}

/**
 * A Transport over node:http/node:https. One connection per request and no
 * keep-alive pool: a crawler fetches each robots.txt about once a day, so a
 * pool would only keep idle sockets (and open handles) around.
 */
export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const url = request.url;
      const isHttps = url.protocol === "https:";
      const requestOptions: https.RequestOptions = {
        method: "GET",
        headers: { ...request.headers, connection: "close" },
        agent: false,
        signal: request.signal,
      };
      const lookup = options.lookup ?? (dns.lookup as unknown as LookupFunction);
      requestOptions.lookup =
        request.allowAddress === undefined ? lookup : guardedLookup(lookup, request.allowAddress);
      if (isHttps && options.rejectUnauthorized === false)
        requestOptions.rejectUnauthorized = false;
      let req: http.ClientRequest;
      try {
        req = (isHttps ? https : http).request(url, requestOptions, (res) => {
          const headers: Record<string, string> = {};
          for (const [key, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(", ") : value;
          }
          const fieldLines: [string, string][] = [];
          const raw = res.rawHeaders;
          for (let i = 0; i + 1 < raw.length; i += 2) {
            fieldLines.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
          }
          const plan = planDecoding(headers["content-encoding"]);
          const counter = { wire: 0 };
          const state: DecodeState = { capped: false };
          resolve({
            status: res.statusCode ?? 0,
            headers,
            fieldLines,
            body: decodeBody(countBytes(res, counter), plan.codings, request.maxBodyBytes, state),
            decoded: true,
            encoding: plan.encoding,
            passedThrough: plan.passedThrough,
            wireBytes: () => counter.wire,
            limited: () => state.capped,
            ...(res.socket?.remoteAddress === undefined
              ? {}
              : { remoteAddress: res.socket.remoteAddress }),
            cancel() {
              res.destroy();
              req.destroy();
            },
          });
        });
      } catch (err) {
        // http.request throws synchronously for a few malformed inputs
        // (e.g. an invalid header value); report them like network errors.
        reject(err);
        return;
      }
      // Kept for the whole life of the request: an error after the response
      // arrived (a reset mid-body) also surfaces on the body stream, and an
      // 'error' without a listener would crash the process.
      req.on("error", reject);
      req.end();
    });
}

/**
 * `lookup` that refuses addresses `allow` rejects: the check is made on the
 * very addresses the socket then connects to (no second DNS answer can slip
 * in between), before anything is sent.
 */
function guardedLookup(
  lookup: LookupFunction,
  allow: (address: string) => boolean,
): LookupFunction {
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (...args: unknown[]) => void,
  ) => {
    lookup(hostname, options, ((err: Error | null, address: unknown, family?: number) => {
      if (err) return callback(err);
      if (Array.isArray(address)) {
        const allowed = (address as dns.LookupAddress[]).filter((a) => allow(a.address));
        if (allowed.length === 0) return callback(refused(hostname, address[0]?.address));
        return callback(null, allowed);
      }
      if (!allow(address as string)) return callback(refused(hostname, address as string));
      return callback(null, address, family);
    }) as never);
  }) as LookupFunction;
}

function refused(hostname: string, address: string | undefined): Error {
  return Object.assign(
    new Error(`${hostname} resolves to ${address ?? "no address"}, a non-public address`),
    { code: "ERR_ADDRESS_REFUSED" },
  );
}
