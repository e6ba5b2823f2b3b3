/**
 * Log lines, given as byte ranges, read into requests and accounted by an
 * Auditor. A Combined or Common line is scanned in place (log-line.ts) and
 * only what is needed is turned into text: its User-Agent and target go
 * through bounded caches (text-cache.ts) that give back, for bytes seen
 * before, the claim and the string made the first time; its address is
 * decoded only for verification. JSON Lines are decoded and parsed whole.
 */
import type { AgentClaim } from "./identify.js";
import {
  ClfFields,
  closingQuote,
  type LogFields,
  type LogFormat,
  type LogRecord,
  readJsonLine,
  scanClfLine,
} from "./log-line.js";
import type { Auditor, AuditRequest, Verification } from "./tally.js";
import { decodeUtf8, TextCache } from "./text-cache.js";

/** Lines of a log as byte ranges of one buffer (src/audit-io/lines.ts makes them). */
export interface LineBatch {
  /** The bytes the ranges are in. */
  readonly bytes: Uint8Array;
  /** Where each line starts; -1 for a line too long to read (malformed). */
  readonly starts: readonly number[];
  /** Where each line ends, its LF or CRLF left out. */
  readonly ends: readonly number[];
}

/** The verification of one claimed crawler's address. */
export type VerifyAddress = (ip: string, claim: AgentClaim) => Verification;

/** Distinct User-Agent headers and targets whose reading is remembered. */
const AGENT_SLOTS = 4096;
const URL_SLOTS = 8192;

/** Reads log lines into requests (the AuditRequest of the line read last) and accounts them. */
export class LogReader implements AuditRequest {
  time = Number.NaN;
  claim: AgentClaim;
  readonly #auditor: Auditor;
  readonly #format: LogFormat;
  readonly #fields: Required<LogFields>;
  readonly #clf = new ClfFields();
  readonly #agents: TextCache<AgentClaim>;
  readonly #noAgent: AgentClaim;
  readonly #urls = new TextCache<string>(URL_SLOTS, (text) => text);
  // The line read last: a JSON record, or a Combined line's bytes and fields.
  #record: LogRecord | null = null;
  #bytes: Uint8Array = new Uint8Array(0);
  #start = 0;

  constructor(auditor: Auditor, format: LogFormat, fields: Required<LogFields>) {
    this.#auditor = auditor;
    this.#format = format;
    this.#fields = fields;
    this.#agents = new TextCache(AGENT_SLOTS, (ua) => auditor.claim(ua));
    this.#noAgent = auditor.claim("");
    this.claim = this.#noAgent;
  }

  /** Reads the line of bytes [start, end) (not blank); false when it is no log record. */
  read(bytes: Uint8Array, start: number, end: number): boolean {
    if (this.#format === "json" || (this.#format === "auto" && bytes[start] === 0x7b)) {
      const r = readJsonLine(decodeUtf8(bytes, start, end), this.#fields);
      if (r === null) return false;
      this.#record = r;
      this.time = r.time;
      this.claim = this.#auditor.claim(r.userAgent);
      return true;
    }
    const f = this.#clf;
    if (!scanClfLine(bytes, start, end, f)) return false;
    this.#record = null;
    this.#bytes = bytes;
    this.#start = start;
    this.time = f.time;
    const claim = f.uaOpen < 0 ? this.#noAgent : this.#agent(bytes, f.uaOpen, end);
    if (claim === undefined) return false;
    this.claim = claim;
    return true;
  }

  /** The claim of the User-Agent quoted from `open`; undefined when it has no closing quote. */
  #agent(bytes: Uint8Array, open: number, end: number): AgentClaim | undefined {
    // Most lines end with this field, holding a User-Agent seen before: then
    // one comparison finds it, and its closing quote, without a scan.
    if (end - 1 > open && bytes[end - 1] === 0x22) {
      const seen = this.#agents.plainHit(bytes, open + 1, end - 1);
      if (seen !== undefined) return seen;
    }
    const close = closingQuote(bytes, open, end);
    if (close < 0) return undefined;
    if (close === open + 2 && bytes[open + 1] === 0x2d) return this.#noAgent;
    return this.#agents.get(bytes, open + 1, close);
  }

  /** The target of the line read last. */
  url(): string {
    const f = this.#clf;
    return this.#record?.url ?? this.#urls.get(this.#bytes, f.urlStart, f.urlEnd);
  }

  /** The User-Agent of the line read last, as logged ("" for none). */
  userAgent(): string {
    const open = this.#clf.uaOpen;
    if (this.#record !== null || open < 0) return this.#record?.userAgent ?? "";
    const close = closingQuote(this.#bytes, open, this.#bytes.length);
    const ua = decodeUtf8(this.#bytes, open + 1, close);
    return ua === "-" ? "" : ua;
  }

  /** The client address of the line read last. */
  ip(): string {
    return this.#record?.ip ?? decodeUtf8(this.#bytes, this.#start, this.#clf.ipEnd);
  }

  /** The catalogue crawlers claimed in `batch`, with their addresses (what a verifier looks up first). */
  claims(batch: LineBatch): { ip: string; claim: AgentClaim }[] {
    const out: { ip: string; claim: AgentClaim }[] = [];
    const { bytes, starts, ends } = batch;
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i]!;
      if (s >= 0 && s < ends[i]! && this.read(bytes, s, ends[i]!)) {
        if (this.claim.kind === "catalogue") out.push({ ip: this.ip(), claim: this.claim });
      }
    }
    return out;
  }

  /**
   * Accounts every line of `batch`, from log `label` where the batch's first
   * line is line `firstLine`; `verify` checks the addresses of catalogue claims.
   */
  account(batch: LineBatch, label: string, firstLine: number, verify?: VerifyAddress): void {
    const auditor = this.#auditor;
    const { bytes, starts, ends } = batch;
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i]!;
      const e = ends[i]!;
      if (s >= 0 && s === e) auditor.blank();
      else if (s < 0 || !this.read(bytes, s, e)) auditor.malformed(label, firstLine + i);
      else {
        const c = this.claim;
        auditor.add(
          this,
          verify === undefined || c.kind !== "catalogue" ? "unchecked" : verify(this.ip(), c),
        );
      }
    }
  }
}
