/**
 * The tester's slow panels (docs/web.md): lint findings, the crawler report
 * and the comparison with another version, drawn from the worker's answers
 * (src/web/slow.ts). Text reaches the page through textContent only.
 */
import { CRAWLER_CATEGORIES } from "../data/crawlers.js";
import { byId, clear, el } from "./dom.js";
import { MAX_CHANGES, MAX_DIAGNOSTICS, type SlowResult } from "./slow.js";

/** A button that puts the caret on a line of the editor. */
export type LineButton = (line: number) => HTMLElement;

/**
 * A crawler's name that never breaks inside a word: each word is kept
 * whole (`white-space: nowrap`, style.css), so a name wraps only at its
 * spaces, never at a hyphen or mid-word. Its text is the name as given.
 */
export function crawlerName(name: string): HTMLElement {
  const parts: (Node | string)[] = [];
  name.split(" ").forEach((word, i) => {
    if (i > 0) parts.push(" ");
    parts.push(el("span", { class: "w" }, [word]));
  });
  return el("span", { class: "name" }, parts);
}

export function renderLint(lint: SlowResult["lint"], lineButton: LineButton): void {
  const list = byId("diagnostics");
  clear(list);
  const { error, warning, info } = lint.counts;
  byId("lint-count").textContent =
    lint.total === 0
      ? "— no findings"
      : `— ${error} error${error === 1 ? "" : "s"}, ${warning} warning${warning === 1 ? "" : "s"}, ${info} note${info === 1 ? "" : "s"}`;
  for (const d of lint.items) {
    list.append(
      el(
        "li",
        {
          class: `diag ${d.severity}`,
          "data-testid": "diagnostic",
          "data-id": d.id,
          "data-line": String(d.line),
          "data-severity": d.severity,
        },
        [
          el("span", { class: "sev" }, [d.severity]),
          lineButton(d.line),
          el("code", { class: "id" }, [d.id]),
          el("span", { class: "msg" }, [d.message]),
          el("span", { class: "fix" }, [`Fix: ${d.fix}`]),
        ],
      ),
    );
  }
  if (lint.total > MAX_DIAGNOSTICS) {
    list.append(
      el("li", { class: "more" }, [
        `… and ${lint.total - MAX_DIAGNOSTICS} more (robots lint lists them all)`,
      ]),
    );
  }
}

const STATUS_TEXT = { blocked: "blocked", partial: "partly blocked", allowed: "allowed" } as const;

type ReportRow = SlowResult["report"]["rows"][number];

/** What decided a crawler's status: its deciding line, or why none applies, and the group it borrows. */
function decidedBy(e: ReportRow, lineButton: LineButton): (Node | string)[] {
  return [
    e.line > 0
      ? lineButton(e.line)
      : e.source === "none" || e.source === "ignores-global"
        ? "no group applies"
        : "no rule for /",
    ...(e.via === undefined
      ? []
      : [
          ` ${e.via}'s group: its operator documents that ${e.name} follows it when no group names ${e.name}${
            e.reference === undefined
              ? ""
              : `; the reference reading gives ${STATUS_TEXT[e.reference]}`
          }`,
        ]),
  ];
}

export function renderReport(report: SlowResult["report"], lineButton: LineButton): void {
  const table = byId<HTMLTableElement>("report");
  clear(table);
  table.append(
    el("thead", {}, [
      el(
        "tr",
        {},
        // Status second: on a phone it stays in view without scrolling sideways.
        ["Crawler", "Status", "Operator", "Purpose", "Decided by"].map((h) =>
          el("th", { scope: "col" }, [h]),
        ),
      ),
    ]),
  );
  const body = document.createElement("tbody");
  const counts = {
    ai: { blocked: 0, partial: 0, allowed: 0 },
    other: { blocked: 0, partial: 0, allowed: 0 },
  };
  for (const e of report.rows) {
    const ai = e.category.startsWith("ai-");
    counts[ai ? "ai" : "other"][e.status]++;
    body.append(
      el(
        "tr",
        {
          "data-testid": "crawler",
          "data-token": e.token,
          "data-status": e.status,
          class: e.status,
        },
        [
          el("th", { scope: "row" }, [crawlerName(e.name)]),
          el("td", { class: "status", "data-testid": "crawler-status" }, [STATUS_TEXT[e.status]]),
          el("td", { class: "operator" }, [e.operator]),
          el("td", { class: "purpose", title: CRAWLER_CATEGORIES[e.category] }, [
            CRAWLER_CATEGORIES[e.category].split(":")[0] ?? "",
          ]),
          el("td", { class: "decided" }, decidedBy(e, lineButton)),
        ],
      ),
    );
  }
  table.append(body);
  const say = (c: { blocked: number; partial: number; allowed: number }) =>
    `${c.blocked} blocked, ${c.partial} partly blocked, ${c.allowed} allowed`;
  const others = report.others;
  byId("report-summary").textContent =
    `AI crawlers: ${say(counts.ai)}. Other crawlers: ${say(counts.other)}.` +
    (others.length > 0
      ? ` The file also names: ${others.slice(0, 20).join(", ")}${others.length > 20 ? ", …" : ""}.`
      : "");
}

export function renderDiff(outcome: SlowResult["diff"]): void {
  const summary = byId("diff-summary");
  const table = byId<HTMLTableElement>("changes");
  clear(table);
  if (outcome === null) {
    summary.textContent = "No other version given.";
    return;
  }
  const { changes, total } = outcome;
  summary.textContent =
    `${total === 0 ? "No verdict changes" : `${total} verdict change${total === 1 ? "" : "s"}`} ` +
    `from the deployed version to the edited one, over ${outcome.checked} URLs and paths (the listed URLs and the edges of every pattern) for ${outcome.agents.join(", ")}.`;
  if (total === 0) return;
  summary.append(
    el(
      "ul",
      { class: "diff-verdicts", "data-testid": "diff-verdicts" },
      outcome.summary.map((line) => el("li", {}, [line])),
    ),
  );
  table.append(
    el("thead", {}, [
      el(
        "tr",
        {},
        ["Crawler", "URL", "Deployed", "Edited"].map((h) => el("th", { scope: "col" }, [h])),
      ),
    ]),
  );
  const body = document.createElement("tbody");
  const side = (s: { allowed: boolean; line: number }) =>
    `${s.allowed ? "✓ allowed" : "✗ disallowed"}${s.line > 0 ? ` (line ${s.line})` : ""}`;
  for (const c of changes) {
    body.append(
      el(
        "tr",
        {
          "data-testid": "change",
          "data-agent": c.agent,
          "data-url": c.url,
          "data-before": c.before.allowed ? "allowed" : "disallowed",
          "data-after": c.after.allowed ? "allowed" : "disallowed",
        },
        [
          el("th", { scope: "row" }, [crawlerName(c.agent)]),
          el("td", { class: "url" }, [c.url]),
          el("td", { class: c.before.allowed ? "allowed" : "disallowed" }, [side(c.before)]),
          el("td", { class: c.after.allowed ? "allowed" : "disallowed" }, [side(c.after)]),
        ],
      ),
    );
  }
  table.append(body);
  if (total > MAX_CHANGES) {
    table.append(el("caption", {}, [`The first ${MAX_CHANGES} of ${total} changes.`]));
  }
}
