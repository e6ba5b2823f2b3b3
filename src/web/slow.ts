/**
 * The tester page's slower answers for one state: lint, the crawler report,
 * the comparison and the link. The page computes them in a Web Worker
 * (src/web/main.ts), off the thread that paints the editor and the grid, or
 * on that thread when no worker can start; either way from this one
 * function, so both give the same answer. The result holds only what the
 * page shows, as plain data a worker can post.
 */

import type { CrawlerCategory } from "../data/crawlers.js";
import { parseDocument, type RobotsDocument } from "../explain/document.js";
import type { Severity } from "../lint/diagnostics.js";
import { lintRobotsTxt } from "../lint/lint-robots-txt.js";
import { encodeUtf8 } from "../parse/bytes.js";
import { groupDigits } from "../protocol/size-limit.js";
import type { CrawlerStatus, ReportSource } from "../report/crawler-report.js";
import { reportCrawlers } from "../report/crawler-report.js";
import { agentList, computeDiff, MAX_AGENTS, MAX_URLS, urlList } from "./engine.js";
import { encodeState, type PageState } from "./fragment.js";

/** Findings listed; the rest are counted. */
export const MAX_DIAGNOSTICS = 300;
/** Lines marked in the editor. */
export const MAX_MARKS = 2000;
/** Changes listed; the rest are counted. */
export const MAX_CHANGES = 500;

export interface LintItem {
  readonly id: string;
  readonly line: number;
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
}

export interface ReportRow {
  readonly name: string;
  readonly token: string;
  readonly operator: string;
  readonly category: CrawlerCategory;
  readonly status: CrawlerStatus;
  readonly line: number;
  readonly source: ReportSource;
  /**
   * The crawler whose group it follows when none names it, as its operator
   * documents (Googlebot-Image → Googlebot), when that decided.
   */
  readonly via?: string;
  /** The reference's status, when the operator's documented reading differs. */
  readonly reference?: CrawlerStatus;
}

export interface ChangeRow {
  readonly agent: string;
  readonly url: string;
  readonly before: { readonly allowed: boolean; readonly line: number };
  readonly after: { readonly allowed: boolean; readonly line: number };
}

export interface SlowResult {
  readonly lint: {
    readonly counts: { readonly error: number; readonly warning: number; readonly info: number };
    readonly total: number;
    /** The first MAX_DIAGNOSTICS findings. */
    readonly items: readonly LintItem[];
    /** The first finding's severity on each line, for up to MAX_MARKS lines. */
    readonly marks: readonly { readonly line: number; readonly severity: Severity }[];
  };
  readonly report: { readonly rows: readonly ReportRow[]; readonly others: readonly string[] };
  /** Null when no other version is given. */
  readonly diff: {
    readonly total: number;
    readonly checked: number;
    readonly agents: readonly string[];
    /** One verdict line per agent whose verdicts changed, before the details. */
    readonly summary: readonly string[];
    /** The first MAX_CHANGES changes. */
    readonly changes: readonly ChangeRow[];
  } | null;
  /** The file's size, lines and groups, and what crawlers read of it. */
  readonly note: string;
  /** The URL fragment (without `#`) that reproduces the state. */
  readonly fragment: string;
  /** Milliseconds spent on each part, for `npm run bench -- web`. */
  readonly ms: {
    readonly lint: number;
    readonly report: number;
    readonly diff: number;
    readonly link: number;
  };
}

/** Everything but the grid for `state`, computed as `robots lint`, `agents` and `diff` do. */
export async function computeSlow(state: PageState): Promise<SlowResult> {
  const t0 = performance.now();
  const bytes = encodeUtf8(state.robots);
  const result = lintRobotsTxt(bytes, { profile: state.profile, lines: false });
  const marks: { line: number; severity: Severity }[] = [];
  const marked = new Set<number>();
  for (const d of result.diagnostics) {
    if (marked.size >= MAX_MARKS) break;
    if (marked.has(d.line)) continue;
    marked.add(d.line);
    marks.push({ line: d.line, severity: d.severity });
  }
  const lint = {
    counts: result.counts,
    total: result.diagnostics.length,
    items: result.diagnostics.slice(0, MAX_DIAGNOSTICS).map((d) => ({
      id: d.id,
      line: d.line,
      severity: d.severity,
      message: d.message,
      fix: d.fix,
    })),
    marks,
  };
  const t1 = performance.now();
  const doc = parseDocument(bytes, { profile: state.profile });
  const report = reportCrawlers(doc.robots);
  const rows = report.crawlers.map((e) => ({
    name: e.crawler.name,
    token: e.crawler.token,
    operator: e.crawler.operator,
    category: e.crawler.category,
    status: e.status,
    line: e.line,
    source: e.source,
    ...(e.source === "fallback" && e.crawler.fallback !== undefined
      ? { via: e.crawler.fallback }
      : {}),
    ...(e.reference === undefined || e.reference.status === e.status
      ? {}
      : { reference: e.reference.status }),
  }));
  const t2 = performance.now();
  let diff: SlowResult["diff"] = null;
  if (state.compare !== "") {
    const before = parseDocument(encodeUtf8(state.compare), { profile: state.profile });
    const outcome = computeDiff(
      before.robots,
      doc.robots,
      agentList(state.agents).slice(0, MAX_AGENTS),
      urlList(state.urls).slice(0, MAX_URLS),
    );
    diff = {
      total: outcome.changes.length,
      checked: outcome.checked,
      agents: outcome.agents,
      summary: outcome.summary,
      changes: outcome.changes.slice(0, MAX_CHANGES).map((c) => ({
        agent: c.agent.label,
        url: c.url,
        before: { allowed: c.before.allowed, line: c.before.line },
        after: { allowed: c.after.allowed, line: c.after.line },
      })),
    };
  }
  const t3 = performance.now();
  const fragment = await encodeState(state);
  const t4 = performance.now();
  return {
    lint,
    note: fileNote(doc),
    report: { rows, others: report.otherAgents.map((o) => o.token) },
    diff,
    fragment,
    ms: { lint: t1 - t0, report: t2 - t1, diff: t3 - t2, link: t4 - t3 },
  };
}

function fileNote(doc: RobotsDocument): string {
  const bytes = groupDigits(doc.body.length);
  const lines = groupDigits(doc.lineCount);
  return doc.full === null
    ? `${bytes} bytes, ${lines} lines, ${doc.robots.groups.length} groups.`
    : `${bytes} bytes: crawlers read only the first ${groupDigits(doc.sizeLimit)} (500 KiB), which end in line ${doc.lastLineRead} of ${lines}.${cutNote(doc)} The grid shows what they see.`;
}

/** " Line N, which the limit cuts, applies as read: …" (or "is dropped"), or "" when no line is cut. */
function cutNote(doc: RobotsDocument): string {
  const c = doc.cutLine;
  return c === null ? "" : ` Line ${groupDigits(c.line)}, which the limit cuts, ${c.fate}.`;
}
