/**
 * The types of the access-method client's public surface: what its
 * constructor takes and its calls answer, down to the parsed file a snapshot
 * holds. Not an entry: robots-exclusion/node and robots-exclusion/fetch
 * export it through lists/access.ts, and robots-exclusion/crawlee and
 * robots-exclusion/page-rules, which take a client, export it whole, so
 * every type their signatures reach is named (docs/api.md).
 */
export type { CachedCopy, CachedEntry } from "../../cache/entry-codec.js";
export type { SharedRobotsStore } from "../../cache/shared-store.js";
export type { RobotsStore, StoredCopy, StoredEntry, StoredError } from "../../cache/store.js";
export type {
  AccessCheck,
  CallOptions,
  ClientStats,
  RobotsClientOptions,
  RobotsSnapshot,
} from "../../client/client-types.js";
export type { Turn } from "../../client/politeness.js";
export type { RobotsClient as RobotsClientBase } from "../../client/robots-client.js";
export type {
  CopyFreshness,
  RulesBasis,
  ServerErrorState,
  SourceState,
} from "../../client/source-state.js";
export type { StoreOperation, StoreProblem } from "../../client/store-guard.js";
export type { RobotsErrorOptions } from "../../errors.js";
export type { AddressClass, AddressClassifier } from "../../fetch/address-class.js";
export type {
  CacheHeaders,
  FetchCommon,
  FetchLimitOptions,
  FetchOk,
  FetchResult,
  FetchUnavailable,
  FetchUnreachable,
  RedirectHop,
  UnavailableReason,
  UnreachableReason,
} from "../../fetch/fetch-robots-txt.js";
export type { RobotsOrigin } from "../../fetch/origin.js";
export type {
  Transport,
  TransportRequest,
  TransportResponse,
} from "../../fetch/transport.js";
export type { MatchedRule, Verdict } from "../../match/compile.js";
export type { GroupSource } from "../../match/select-groups.js";
export type { RobotsTxt } from "../../parse/parse-robots-txt.js";
export type {
  AgentLine,
  Directive,
  Group,
  LineKind,
  LineRecord,
  Rule,
  RuleKind,
  Sitemap,
} from "../../parse/types.js";
export type { Profile } from "../../protocol/profile.js";
