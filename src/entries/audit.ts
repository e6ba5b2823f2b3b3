/**
 * robots-exclusion/audit: which crawlers obeyed robots.txt, read from access
 * logs (docs/audit.md). `auditLogs` streams Combined, Common and JSON Lines
 * logs (`.gz` too) in bounded memory and counts, per crawler, requests,
 * disallowed requests with the deciding line, Crawl-delay breaches and
 * verification outcomes, against one robots.txt or its dated versions.
 */
import type { AgentClaim } from "../audit/identify.js";
import {
  DEFAULT_LOG_FIELDS,
  type LogFields,
  type LogFormat,
  readLogLine,
} from "../audit/log-line.js";
import {
  Auditor,
  type AuditorOptions,
  type AuditResult,
  type RobotsVersion,
} from "../audit/tally.js";
import { eachLineBatch, type LogInput, openLog } from "../audit-io/lines.js";
import type { AddressVerifier } from "../audit-io/verify.js";
import { RobotsError } from "../errors.js";

export type { AgentClaim } from "../audit/identify.js";
export { type IpPrefix, readRanges } from "../audit/ip.js";
export { DEFAULT_LOG_FIELDS, type LogFields, type LogFormat } from "../audit/log-line.js";
export type {
  AuditCrawler,
  AuditExample,
  AuditorOptions,
  AuditResult,
  AuditTimeline,
  MalformedLine,
  RobotsVersion,
  Verification,
} from "../audit/tally.js";
export type { LogInput } from "../audit-io/lines.js";
export {
  type AddressVerifier,
  combineVerifiers,
  type DnsVerifierOptions,
  dnsVerifier,
  type PublishedRanges,
  rangesVerifier,
} from "../audit-io/verify.js";
export { dirVersions, fileVersion, gitVersions } from "../audit-io/versions.js";
export { RobotsError, RobotsErrorCode, type RobotsErrorOptions } from "../errors.js";
export type { Profile } from "../protocol/profile.js";

/** Options of auditLogs. */
export interface AuditOptions extends AuditorOptions {
  /** The robots.txt versions to compare with (at least one). */
  readonly robots: readonly RobotsVersion[];
  /** Log format: `auto` (default: a line starting with `{` is JSON Lines), `clf` or `json`. */
  readonly format?: LogFormat;
  /** JSON Lines field names, each tried in order (default DEFAULT_LOG_FIELDS). */
  readonly fields?: LogFields;
  /** How addresses of claimed crawlers are verified; none when absent. */
  readonly verify?: AddressVerifier;
  /** Called after each batch of lines with the count read so far (progress display). */
  readonly onProgress?: (lines: number) => void;
}

/** Audit `logs` (file names, `-` for stdin, or streams) against robots.txt. */
export async function auditLogs(
  logs: readonly LogInput[],
  options: AuditOptions,
): Promise<AuditResult> {
  if (!Array.isArray(options?.robots) || options.robots.length === 0) {
    throw new RobotsError(
      "invalid-option",
      "auditLogs needs robots: at least one robots.txt version",
    );
  }
  const auditor = new Auditor(options.robots, options);
  const fields = { ...DEFAULT_LOG_FIELDS, ...options.fields };
  const format = options.format ?? "auto";
  const verifier = options.verify;
  let read = 0;
  for (const input of logs) {
    const { stream, label } = openLog(input);
    let lineNo = 0;
    const onBatch = async (lines: (string | null)[]) => {
      const records = lines.map((l) =>
        l === null || l === "" ? null : readLogLine(l, format, fields),
      );
      const claims = records.map((r) => (r === null ? null : auditor.claim(r.userAgent)));
      if (verifier?.prepare !== undefined) {
        const checks: { ip: string; claim: AgentClaim }[] = [];
        for (let i = 0; i < records.length; i++) {
          const c = claims[i];
          if (c?.kind === "catalogue") checks.push({ ip: records[i]!.ip, claim: c });
        }
        if (checks.length > 0) await verifier.prepare(checks);
      }
      for (let i = 0; i < lines.length; i++) {
        lineNo++;
        const r = records[i];
        if (r === null || r === undefined) {
          if (lines[i] === "") auditor.blank();
          else auditor.malformed(label, lineNo);
          continue;
        }
        const claim = claims[i]!;
        const v =
          verifier === undefined || claim.kind !== "catalogue"
            ? "unchecked"
            : verifier.verify(r.ip, claim);
        auditor.add(r, claim, v);
      }
      read += lines.length;
      options.onProgress?.(read);
    };
    try {
      await eachLineBatch(stream, onBatch);
    } catch (err) {
      if (err instanceof RobotsError) throw err;
      const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
      throw new RobotsError("unreadable-input", `cannot read ${label}: ${why}`, { cause: err });
    }
  }
  return auditor.result();
}
