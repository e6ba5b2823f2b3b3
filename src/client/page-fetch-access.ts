/**
 * What page fetches (src/page-rules-io) ask of a RobotsClient beyond its
 * public methods: the fetch setup its robots.txt fetches use, and check()
 * for a redirect target under the redirect address rule. They are functions
 * of the package, not members of the public class, so the published
 * RobotsClient is exactly its public surface. The class grants them once,
 * when it is defined; this module loads nothing, so the page-rules entry
 * does not load the client to use them.
 */
import type { AccessCheck, CallOptions, FetchSetup } from "./client-types.js";

/**
 * The two doors into a client that page fetches use. `client` is a
 * RobotsClient; typed `object` so this module does not import the class
 * that imports it (the class's private fields reject anything else).
 */
export interface PageFetchAccess {
  /** The transport, connect timeout and address rule of the client's robots.txt fetches. */
  fetchSetup(client: object): FetchSetup;
  /** check() for the target of a redirect; `{ refused }` when its address is refused. */
  checkRedirectTarget(
    client: object,
    url: string,
    options: CallOptions,
  ): Promise<AccessCheck | { readonly refused: string }>;
}

const granted: { access?: PageFetchAccess } = {};

/** Called once, by RobotsClient's static block. */
export function grantPageFetchAccess(access: PageFetchAccess): void {
  granted.access ??= access;
}

/** The access the RobotsClient class granted; a client exists, so its class is loaded. */
export function pageFetchAccess(): PageFetchAccess {
  if (granted.access === undefined) throw new TypeError("RobotsClient is not loaded");
  return granted.access;
}
