/**
 * Is a request from the crawler it claims to be? Two checks
 * (docs/audit.md#verification): the operator's published IP ranges, and
 * reverse DNS with forward confirmation against the operator's domains
 * (src/data/crawler-domains.ts), through node:dns with any resolver.
 * Answers are cached per address (bounded), so each is asked once.
 */
import { Resolver } from "node:dns/promises";
import type { AgentClaim } from "../audit/identify.js";
import { type IpPrefix, inPrefix, parseIp, sameIp } from "../audit/ip.js";
import type { Verification } from "../audit/tally.js";
import { OPERATOR_DOMAINS } from "../data/crawler-domains.js";

/** A way to verify a claimed crawler's address. */
export interface AddressVerifier {
  /** Look up what `verify` will need for these requests (DNS); may be absent. */
  prepare?(checks: readonly { ip: string; claim: AgentClaim }[]): Promise<void>;
  /** The outcome for one request; `unchecked` when this verifier says nothing about the claim. */
  verify(ip: string, claim: AgentClaim): Verification;
}

/** Published ranges, for the crawlers of `operators` (every catalogue crawler when absent). */
export interface PublishedRanges {
  /** The published prefixes. */
  readonly prefixes: readonly IpPrefix[];
  /** The catalogue operators (`Google`) whose crawlers they verify. */
  readonly operators?: readonly string[];
}

const CACHE_MAX = 100_000;

/** Verification by published IP ranges. */
export function rangesVerifier(ranges: readonly PublishedRanges[]): AddressVerifier {
  return {
    verify(ip, claim) {
      if (claim.kind !== "catalogue") return "unchecked";
      const apply = ranges.filter(
        (r) => r.operators === undefined || r.operators.includes(claim.operator ?? ""),
      );
      if (apply.length === 0) return "unchecked";
      const bytes = parseIp(ip);
      if (bytes === null) return "unverified";
      return apply.some((r) => r.prefixes.some((p) => inPrefix(bytes, p)))
        ? "verified"
        : "unverified";
    },
  };
}

/** Options of dnsVerifier. */
export interface DnsVerifierOptions {
  /** Resolvers to ask (`host` or `host:port`, `[v6]:port`); default the system's. */
  readonly servers?: readonly string[];
  /** Per-query timeout in ms (default 2000). */
  readonly timeoutMs?: number;
}

function underDomain(name: string, domains: readonly string[]): boolean {
  const n = (name.endsWith(".") ? name.slice(0, -1) : name).toLowerCase();
  return domains.some((d) => n.endsWith(`.${d}`));
}

/** Codes that mean "no such record": a definite answer, unlike a timeout or SERVFAIL. */
const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

async function checkAddress(resolver: Resolver, ip: string, domains: readonly string[]) {
  const bytes = parseIp(ip);
  if (bytes === null) return "unverified" as const;
  try {
    const names = (await resolver.reverse(ip)).filter((n) => underDomain(n, domains));
    const v4 = !ip.includes(":") || (bytes[10] === 0xff && bytes[11] === 0xff && ip.includes("."));
    for (const name of names.slice(0, 4)) {
      const addrs = v4 ? await resolver.resolve4(name) : await resolver.resolve6(name);
      if (
        addrs.some((a) => {
          const b = parseIp(a);
          return b !== null && sameIp(b, bytes);
        })
      ) {
        return "verified" as const;
      }
    }
    return "unverified" as const;
  } catch (err) {
    // A missing record is a failed check; a resolver that did not answer says nothing.
    return ABSENT.has((err as { code?: string }).code ?? "") ? "unverified" : "unchecked";
  }
}

/** Verification by reverse DNS and forward confirmation against the operator's domains. */
export function dnsVerifier(options: DnsVerifierOptions = {}): AddressVerifier {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  if (options.servers !== undefined) resolver.setServers([...options.servers]);
  const cache = new Map<string, Verification>();
  const key = (ip: string, claim: AgentClaim) => `${claim.operator}\u0000${ip}`;
  const domainsOf = (claim: AgentClaim) =>
    claim.kind === "catalogue" ? OPERATOR_DOMAINS[claim.operator ?? ""] : undefined;
  return {
    async prepare(checks) {
      const todo = new Map<string, Promise<void>>();
      for (const { ip, claim } of checks) {
        const domains = domainsOf(claim);
        const k = key(ip, claim);
        if (domains === undefined || cache.has(k) || todo.has(k)) continue;
        todo.set(
          k,
          checkAddress(resolver, ip, domains).then((v) => {
            if (cache.size >= CACHE_MAX) cache.clear();
            cache.set(k, v);
          }),
        );
      }
      await Promise.all(todo.values());
    },
    verify(ip, claim) {
      if (domainsOf(claim) === undefined) return "unchecked";
      return cache.get(key(ip, claim)) ?? "unchecked";
    },
  };
}

/** Several verifiers as one: verified when one verifies, unverified when one fails and none verifies. */
export function combineVerifiers(list: readonly AddressVerifier[]): AddressVerifier {
  return {
    async prepare(checks) {
      await Promise.all(list.map((v) => v.prepare?.(checks)));
    },
    verify(ip, claim) {
      let out: Verification = "unchecked";
      for (const v of list) {
        const r = v.verify(ip, claim);
        if (r === "verified") return r;
        if (r === "unverified") out = r;
      }
      return out;
    },
  };
}
