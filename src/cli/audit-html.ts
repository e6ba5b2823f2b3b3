/**
 * `robots audit --format html`: one self-contained page (no script, no
 * external resource) with an inline SVG chart of requests per crawler over
 * time, violations marked, and the summary table. Every text that came from
 * a log or a robots.txt passes through xmlText.
 */
import type { AuditCrawler, AuditResult, AuditTimeline } from "../audit/tally.js";
import { xmlText } from "./ci-output.js";

const WIDTH = 900;
const HEIGHT = 320;
const PAD = 40;
/** Columns of the chart: requests are summed into at most this many spans of time. */
const COLUMNS = 120;
/** Crawlers drawn: the most active; the table lists all. */
const LINES = 8;
const COLOURS = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#17becf",
];

interface Series {
  readonly name: string;
  readonly counts: number[];
  readonly broke: number[];
}

function seriesOf(timelines: readonly AuditTimeline[]): {
  series: Series[];
  t0: number;
  span: number;
} {
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  for (const t of timelines) {
    for (const [h] of t.hours) {
      if (h < t0) t0 = h;
      if (h > t1) t1 = h;
    }
  }
  if (t0 > t1) return { series: [], t0: 0, span: 1 };
  const hour = 3_600_000;
  const span = Math.max(hour, Math.ceil((t1 + hour - t0) / COLUMNS / hour) * hour);
  const top = [...timelines]
    .map((t) => ({ t, total: t.hours.reduce((s, h) => s + h[1], 0) }))
    .sort((a, b) => b.total - a.total)
    .slice(0, LINES);
  const series = top.map(({ t }) => {
    const n = Math.floor((t1 - t0) / span) + 1;
    const counts = new Array<number>(n).fill(0);
    const broke = new Array<number>(n).fill(0);
    for (const [h, requests, bad] of t.hours) {
      const i = Math.floor((h - t0) / span);
      counts[i]! += requests;
      broke[i]! += bad;
    }
    return { name: t.name, counts, broke };
  });
  return { series, t0, span };
}

function chart(timelines: readonly AuditTimeline[]): string {
  const { series, t0, span } = seriesOf(timelines);
  if (series.length === 0) return "<p>No dated requests to chart.</p>";
  const n = series[0]!.counts.length;
  const max = Math.max(1, ...series.flatMap((s) => s.counts));
  const x = (i: number) => PAD + (n === 1 ? 0 : (i * (WIDTH - 2 * PAD)) / (n - 1));
  const y = (v: number) => HEIGHT - PAD - (v * (HEIGHT - 2 * PAD)) / max;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT + 20 * series.length}" role="img" aria-label="requests per crawler over time">`,
    `<line x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}" stroke="#999"/>`,
    `<line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${HEIGHT - PAD}" stroke="#999"/>`,
    `<text x="${PAD}" y="${PAD - 8}" font-size="11">${max} requests per ${span / 3_600_000} h</text>`,
    `<text x="${PAD}" y="${HEIGHT - PAD + 16}" font-size="11">${xmlText(new Date(t0).toISOString())}</text>`,
    `<text x="${WIDTH - PAD}" y="${HEIGHT - PAD + 16}" font-size="11" text-anchor="end">${xmlText(new Date(t0 + (n - 1) * span).toISOString())}</text>`,
  ];
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length]!;
    const points = s.counts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(
      `<polyline class="series" data-name="${xmlText(s.name)}" fill="none" stroke="${colour}" stroke-width="1.5" points="${points}"/>`,
    );
    s.broke.forEach((b, i) => {
      if (b === 0) return;
      parts.push(
        `<circle class="violation" cx="${x(i).toFixed(1)}" cy="${y(s.counts[i]!).toFixed(1)}" r="4" fill="#d62728"><title>${xmlText(s.name)}: ${b} request(s) breaking robots.txt</title></circle>`,
      );
    });
    const ly = HEIGHT + 20 * k;
    parts.push(
      `<rect x="${PAD}" y="${ly - 9}" width="12" height="4" fill="${colour}"/><text x="${PAD + 18}" y="${ly}" font-size="12">${xmlText(s.name)}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n");
}

function table(title: string, rows: readonly AuditCrawler[]): string {
  if (rows.length === 0) return "";
  const head =
    "<tr><th>crawler</th><th>requests</th><th>disallowed</th><th>delay breaches</th><th>verified</th><th>unverified</th><th>first disallowed (log line → robots.txt line)</th></tr>";
  const body = rows
    .map((r) => {
      const ex = r.examples
        .map(
          (e) =>
            `${e.logLine}: ${xmlText(e.url)} → ${e.robotsLine}${e.robotsVersion === undefined ? "" : ` (${xmlText(e.robotsVersion)})`}`,
        )
        .join("<br>");
      return `<tr><td>${xmlText(r.name)}</td><td>${r.requests}</td><td>${r.disallowed}</td><td>${r.delayBreaches}</td><td>${r.verified}</td><td>${r.unverified}</td><td>${ex}</td></tr>`;
    })
    .join("\n");
  return `<h2>${title}</h2>\n<table>\n${head}\n${body}\n</table>`;
}

/** The whole page. */
export function auditHtml(result: AuditResult, robotsLabel: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>robots.txt audit</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}td{overflow-wrap:anywhere;max-width:40em}</style>
</head><body>
<h1>Which crawlers obeyed robots.txt</h1>
<p>robots.txt: ${xmlText(robotsLabel)}. ${result.lines} log lines read, ${result.malformed} malformed.</p>
${chart(result.timelines ?? [])}
${table("Crawlers", result.crawlers)}
${table("Claimed a crawler, address not verified", result.unverifiedClaims)}
</body></html>
`;
}
