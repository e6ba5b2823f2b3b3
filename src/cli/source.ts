/**
 * Where a command's robots.txt comes from: a local file, `-` (stdin), or a
 * URL (fetched through the access-method client, docs/protocol.md#access-method).
 */

import type { RobotsClient, RobotsSnapshot, SourceState } from "../entries/node.js";
import { RobotsError } from "../errors.js";
import type { Profile } from "../protocol/profile.js";
import { CliError } from "./errors.js";
import { isUrlArg, readBodyArg } from "./io.js";
import { cliIo } from "./run-io.js";
import { serverErrorOutlook } from "./timeline-text.js";

export interface RobotsSource {
  /** The body to parse (empty when the fetch outcome carries no body). */
  readonly body: Uint8Array;
  /** What to call it in output: the file name, "<stdin>", or the robots.txt URL. */
  readonly label: string;
  /** For URLs: a one-line description of the fetch outcome (status, cache state). */
  readonly note?: string;
  /**
   * For URLs: what the fetch outcome means. `forbidden` and
   * `server-error-disallow` disallow everything although `body` is empty.
   */
  readonly basis?: SourceState["basis"];
  /** A file or stdin had more bytes than were read (`readMax`): the rest was not read. */
  readonly more?: boolean;
  /** For URLs: the client cut the body at its size limit. */
  readonly truncated?: boolean;
}

export interface SourceOptions {
  readonly profile: Profile;
  /** The crawler's product token, sent in the User-Agent header when fetching. */
  readonly agent?: string;
  /** Total fetch timeout in ms (default: the client's, 15 s). */
  readonly timeoutMs?: number;
  /** The most bytes to read of a file or stdin (default READ_CAP). */
  readonly readMax?: number;
}

/** Product token sent when a command fetches without an --agent. */
export const CLI_AGENT = "robots-exclusion";

/**
 * A client for one CLI run. The User-Agent names the crawler the user asked
 * about (docs/protocol.md#request) and says that this tool made the request.
 * Loaded on demand: commands reading local files do not pay node:https/zlib
 * at start-up (docs/performance-decisions.md, The CLI).
 */
export async function cliClient(options: SourceOptions): Promise<RobotsClient> {
  const { RobotsClient } = await import("../entries/node.js");
  const token = options.agent ?? CLI_AGENT;
  const timeouts =
    options.timeoutMs === undefined
      ? {}
      : {
          totalTimeoutMs: options.timeoutMs,
          connectTimeoutMs: Math.min(options.timeoutMs, 5_000),
        };
  try {
    return new RobotsClient(`${token} (robots-exclusion CLI)`, {
      productToken: token,
      profile: options.profile,
      now: cliIo().now,
      ...timeouts,
    });
  } catch (err) {
    throw asCliError(err);
  }
}

/** RobotsError (bad URL, scheme, agent) → one-line CLI error, exit 2. */
export function asCliError(err: unknown): unknown {
  return err instanceof RobotsError ? new CliError(err.message) : err;
}

/**
 * A URL argument the CLI fetches: port 0 is no port a server listens on (the
 * socket layer would pick the scheme's default instead), so it is refused.
 */
export function checkFetchUrl(arg: string): void {
  let port: string | undefined;
  try {
    port = new URL(arg).port;
  } catch {
    return; // the client reports a malformed URL itself
  }
  if (port === "0") {
    throw new CliError(
      `invalid URL ${JSON.stringify(arg)}: port 0 is not a port a server listens on`,
    );
  }
}

/** Load a robots.txt argument: file, `-`, or http(s) URL. */
export async function loadRobotsSource(arg: string, options: SourceOptions): Promise<RobotsSource> {
  if (isUrlArg(arg)) {
    checkFetchUrl(arg);
    const client = await cliClient(options);
    let snap: RobotsSnapshot;
    try {
      snap = await client.robots(arg);
    } catch (err) {
      throw asCliError(err);
    }
    const good = snap.entry.good;
    // The body of the copy in force; a server error or a 4xx has none.
    const body = snap.robots !== null && good !== null ? good.body : new Uint8Array(0);
    return {
      body,
      label: snap.source.robotsUrl,
      note: [describeSource(snap.source), outageOutlook(snap.source, options.profile)]
        .filter((n) => n !== undefined)
        .join("; "),
      basis: snap.source.basis,
      truncated: snap.source.truncated,
    };
  }
  const { bytes, more } = await readBodyArg(arg, options.readMax);
  return { body: bytes, label: arg === "-" ? "<stdin>" : arg, more };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** "24 h", "5 min", "30 s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  if (s < 2 * 86400) return `${Math.round(s / 360) / 10} h`;
  return `${Math.round(s / 8640) / 10} days`;
}

/**
 * While robots.txt cannot be fetched: what applies now and what a crawler
 * does next and when (serverErrorOutlook); undefined otherwise.
 */
export function outageOutlook(s: SourceState, profile: Profile): string | undefined {
  const e = s.serverError;
  if (e === null) return undefined;
  const hasCopy = s.basis === "rules" ? true : s.basis === "server-error-allow" ? false : null;
  return serverErrorOutlook(profile, { since: e.since, now: e.since + e.elapsedMs, hasCopy });
}

/** One line: where the rules came from and in what state (docs/protocol.md#access-method). */
export function describeSource(s: SourceState): string {
  const error = s.serverError;
  const failing =
    error === null
      ? ""
      : `server error since ${iso(error.since)} (${error.message}; ${error.attempts} attempt(s), next retry ${iso(error.nextRetryAt)})`;
  const via = s.redirects.length === 0 ? "" : `, via ${s.redirects.length} redirect(s)`;
  const copy =
    s.fetchedAt === null || s.expiresAt === null
      ? ""
      : s.freshness === "stale"
        ? `last good copy from ${iso(s.fetchedAt)}, stale`
        : `${s.freshness === "fetched" ? "fetched now" : "cached"}, fresh until ${iso(s.expiresAt)}`;
  switch (s.basis) {
    case "robots-txt-itself":
      return "the robots.txt URL itself is always allowed (RFC 9309)";
    case "private-origin":
      return "a non-public address: refused without a request (refusePrivateOrigins)";
    case "rules":
      return [
        `HTTP ${s.status}, ${s.bytes} bytes${s.truncated ? " (cut at the size limit)" : ""}${via}, ${copy}`,
        failing,
      ]
        .filter(Boolean)
        .join("; ");
    case "no-robots-txt":
      return [
        `${s.status === null ? "no response" : `HTTP ${s.status}`}${via}: no robots.txt, everything allowed${copy === "" ? "" : ` (${copy})`}`,
        failing,
      ]
        .filter(Boolean)
        .join("; ");
    case "forbidden":
      return `HTTP ${s.status}: access forbidden, everything disallowed (1996 draft)`;
    case "server-error-disallow":
      return `${failing}: everything disallowed while the server fails (docs/protocol.md#access-method)`;
    case "server-error-allow":
      return `${failing}: no usable copy, everything allowed (docs/protocol.md#server-error-timeline)`;
  }
}
