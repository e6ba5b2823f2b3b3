/**
 * Which addresses the client may reach (docs/fetching.md "The request"):
 * redirects from a public address to a non-public one are refused unless
 * allowPrivateRedirects, and with refusePrivateOrigins a non-public origin
 * is refused outright, without a request ("Non-public origins"). One
 * classifier decides both (classifyAddress, src/fetch/address-class.ts).
 */
import { RobotsError } from "../errors.js";
import { type AddressClassifier, classifyAddress, nonPublicHost } from "../fetch/address-class.js";
import type { FetchResult } from "../fetch/fetch-robots-txt.js";
import type { RobotsOrigin } from "../fetch/origin.js";
import type { AccessCheck, RobotsClientOptions, RobotsSnapshot } from "./client-types.js";
import { robotsItselfState } from "./source-state.js";

export interface AddressPolicy {
  /** The options fetchRobotsTxt takes for them. */
  readonly fetch: {
    readonly allowPrivateRedirects?: boolean;
    readonly classifyAddress?: AddressClassifier;
    readonly publicOnly: boolean;
  };
  /** refusePrivateOrigins: the classifier that decides, or null when the option is off. */
  readonly refuse: AddressClassifier | null;
}

/** The client's address options, checked (a wrong type is RobotsError `invalid-option`). */
export function addressPolicy(options: RobotsClientOptions): AddressPolicy {
  if (options.classifyAddress !== undefined && typeof options.classifyAddress !== "function") {
    throw new RobotsError(
      "invalid-option",
      'classifyAddress must be a function (address) => "public" | "private"',
    );
  }
  if (
    options.refusePrivateOrigins !== undefined &&
    typeof options.refusePrivateOrigins !== "boolean"
  ) {
    throw new RobotsError("invalid-option", "refusePrivateOrigins must be true or false");
  }
  const refuse =
    options.refusePrivateOrigins === true ? (options.classifyAddress ?? classifyAddress) : null;
  return {
    fetch: {
      ...(options.allowPrivateRedirects === undefined
        ? {}
        : { allowPrivateRedirects: options.allowPrivateRedirects === true }),
      ...(options.classifyAddress === undefined
        ? {}
        : { classifyAddress: options.classifyAddress }),
      publicOnly: refuse !== null,
    },
    refuse,
  };
}

/**
 * Why `origin` is refused without a request under refusePrivateOrigins,
 * or null: its host is an IP address the classifier calls non-public, or
 * a name that always means this machine (RFC 6761 `localhost`), however
 * spelled (nonPublicHost, src/fetch/address-class.ts). Other names are
 * judged by the address the fetch connects to (`fetch.publicOnly`).
 */
export function refusalOf(origin: RobotsOrigin, policy: AddressPolicy): string | null {
  const classify = policy.refuse;
  if (classify === null) return null;
  const host = origin.hostname;
  switch (nonPublicHost(host, classify)) {
    case "address":
      return `${host} is a non-public address: refused without a request (refusePrivateOrigins)`;
    case "localhost":
      return `${host} names this machine: refused without a request (refusePrivateOrigins)`;
    default:
      return null;
  }
}

/** check()'s answer for a refused origin. */
export function refusedCheck(
  url: string,
  path: string,
  origin: RobotsOrigin,
  agent: string,
  reason: string,
): AccessCheck {
  return {
    url,
    path,
    allowed: false,
    line: 0,
    rule: null,
    verdict: null,
    agent,
    source: robotsItselfState(origin, "private-origin"),
    reason,
  };
}

/** robots()'s answer for a refused origin: no copy. */
export function refusedSnapshot(origin: RobotsOrigin): RobotsSnapshot {
  return {
    source: robotsItselfState(origin, "private-origin"),
    robots: null,
    entry: { origin: origin.origin, good: null, error: null },
    lastFetch: null,
  };
}

/** A redirect target's robots.txt fetch refused at its origin's own address (checkRedirectTarget). */
export class AddressRefused extends Error {}

/** The fetch was refused before any request: its first hop's address is not public. */
export function refusedAtOrigin(
  result: FetchResult,
): result is FetchResult & { kind: "unreachable" } {
  return (
    result.kind === "unreachable" &&
    result.code === "ERR_ADDRESS_REFUSED" &&
    result.redirects.length === 0
  );
}
