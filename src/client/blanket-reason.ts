/**
 * Why a verdict has no deciding rule, in words: what the robots.txt fetch
 * came to (docs/protocol.md#status-codes). The CLI's check and the
 * Playwright guard's blocked reports say it the same way.
 */
import type { AccessCheck } from "./client-types.js";

/** One clause on what decided `check` when no rule did. */
export function blanketReason(check: Pick<AccessCheck, "source">): string {
  switch (check.source.basis) {
    case "robots-txt-itself":
      return "the robots.txt URL itself is always allowed";
    case "no-robots-txt":
      return "there is no robots.txt, so everything is allowed";
    case "forbidden":
      return "robots.txt is forbidden (401/403), so everything is disallowed (1996 draft)";
    case "server-error-disallow":
      return "the server fails, so everything is disallowed";
    case "private-origin":
      return "the host is a non-public address, refused without a request";
    default:
      return "the server has failed for long and no good copy is usable, so everything is allowed";
  }
}
