/**
 * robots-exclusion/audit: which crawlers obeyed robots.txt, read from access
 * logs (docs/audit.md). `auditLogs` streams Combined, Common and JSON Lines
 * logs (`.gz` too) in bounded memory and counts, per crawler, requests,
 * disallowed requests with the deciding line, Crawl-delay breaches and
 * verification outcomes, against one robots.txt or its dated versions.
 */
import { DEFAULT_LOG_FIELDS, type LogFields, type LogFormat } from "../audit/log-line.js";
import { type LineBatch, LogReader } from "../audit/log-reader.js";
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
  const reader = new LogReader(auditor, options.format ?? "auto", {
    ...DEFAULT_LOG_FIELDS,
    ...options.fields,
  });
  const verifier = options.verify;
  const verify = verifier === undefined ? undefined : verifier.verify.bind(verifier);
  let read = 0;
  for (const input of logs) {
    const { stream, label } = openLog(input);
    let lineNo = 0;
    const onBatch = async (batch: LineBatch) => {
      if (verifier?.prepare !== undefined) {
        const checks = reader.claims(batch);
        if (checks.length > 0) await verifier.prepare(checks);
      }
      reader.account(batch, label, lineNo + 1, verify);
      lineNo += batch.starts.length;
      read += batch.starts.length;
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
