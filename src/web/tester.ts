/**
 * The robots.txt tester page (docs/web.md). Every answer comes from the core
 * modules, in the page: parse and match (the grid), explain (a cell's why),
 * lint, the crawler report and diff.
 *
 * How an edit stays fast (`npm run bench -- web` measures edit → grid): the
 * input handler parses the file and updates the grid, changing only the
 * cells whose verdict or line changed, so the grid shows at the next paint.
 * Lint, the report, the comparison and the link are computed by a worker
 * (src/web/slow.ts) once typing pauses for SLOW_DELAY_MS, and shown only if
 * no edit came meanwhile; `<html data-saved="1">` says they have caught up.
 * All text from the file, the inputs or a fetch reaches the page through
 * textContent and attributes, never as HTML.
 */

import { CRAWLER_CATEGORIES } from "../data/crawlers.js";
import { parseDocument, type RobotsDocument } from "../explain/document.js";
import { createExplainer } from "../explain/explain-url.js";
import { readAgentName } from "../match/agent-name.js";
import { operatorException } from "../match/operator-reading.js";
import { encodeUtf8 } from "../parse/bytes.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { byId, clear, el } from "./dom.js";
import {
  agentList,
  agentNotes,
  computeGrid,
  crawlerRobots,
  type GridCell,
  MAX_AGENTS,
  MAX_URLS,
  urlList,
} from "./engine.js";
import { type FetchAnswer, renderFetchInfo } from "./fetch-info.js";
import { decodeState, encodeState, type PageState } from "./fragment.js";
import { computeSlow, MAX_CHANGES, MAX_DIAGNOSTICS, type SlowResult } from "./slow.js";
import type { SlowJob } from "./worker.js";

/** Lint, report, diff and the link are computed once typing pauses this long. */
const SLOW_DELAY_MS = 150;
/**
 * The address bar gets the new link this long after the answers are shown,
 * if no edit came meanwhile: with a 500 KiB file the link is a 100+ KiB URL,
 * and writing it (history.replaceState) measured 25–40 ms on the page's thread.
 * "Copy link" writes it at once.
 */
const LINK_DELAY_MS = 300;

const SAMPLE: PageState = {
  robots: `User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: Googlebot
Disallow: /search
Dissallow: /tmp/

Sitemap: https://example.com/sitemap.xml
`,
  agents: "Googlebot, GPTBot, Bingbot",
  urls: `https://example.com/
https://example.com/private/report.html
https://example.com/private/press/launch
https://example.com/docs/guide.pdf
https://example.com/search?q=robots
https://example.com/tmp/cache`,
  profile: "google",
  compare: "",
};

const robotsTa = byId<HTMLTextAreaElement>("robots-txt");
const agentsIn = byId<HTMLInputElement>("agents");
const urlsTa = byId<HTMLTextAreaElement>("urls");
const compareTa = byId<HTMLTextAreaElement>("compare-txt");
const profileSel = byId<HTMLSelectElement>("profile");
const gutter = byId<HTMLPreElement>("gutter");
const marks = byId<HTMLDivElement>("marks");
const grid = byId<HTMLTableElement>("grid");
const explainBox = byId<HTMLDivElement>("explain");
const root = document.documentElement;

interface Selection {
  agent: string;
  url: string;
}

/** The file as crawlers read it, for the grid (engine.ts crawlerRobots). */
let robots: RobotsTxt = crawlerRobots("", "google");
/** The text and profile `robots` was parsed from. */
let parsed = { text: "", profile: "google" as Profile };
/** The same file with its lines' positions, for explanations: made when one is shown. */
let doc: RobotsDocument | null = null;

function currentDoc(): RobotsDocument {
  doc ??= parseDocument(encodeUtf8(parsed.text), { profile: parsed.profile });
  return doc;
}
let agents: string[] = [];
let urls: string[] = [];
let selected: Selection | null = null;
let shownLines = -1;
/** The grid's rows and columns as built (JSON), its cells and their buttons, for in-place updates. */
let gridKey = "";
let gridCells: readonly GridCell[] = [];
let gridButtons: HTMLButtonElement[] = [];
let slowTimer: ReturnType<typeof setTimeout> | undefined;
/** The number of the newest state; slow answers for older ones are dropped. */
let stateId = 0;
let worker: Worker | null = null;
/** A job is in the worker; `waiting`: a newer state is to follow it. */
let workerBusy = false;
let waiting = false;
let lastFragment = "";
let lintMarks: SlowResult["lint"]["marks"] = [];
/**
 * What each panel shows (JSON), so an unchanged answer leaves the DOM alone:
 * every change there costs the next frame style and layout work.
 */
const shown = {
  note: "",
  gridNote: "",
  lint: "",
  report: "",
  diff: "",
  marks: "",
  explain: "",
};

function profile(): Profile {
  return isProfile(profileSel.value) ? profileSel.value : "google";
}

function currentState(): PageState {
  return {
    robots: robotsTa.value,
    agents: agentsIn.value,
    urls: urlsTa.value,
    profile: profile(),
    compare: compareTa.value,
  };
}

function applyState(s: PageState): void {
  robotsTa.value = s.robots;
  agentsIn.value = s.agents;
  urlsTa.value = s.urls;
  profileSel.value = s.profile;
  compareTa.value = s.compare;
  selected = null;
  update();
}

/** A User Timing measure for `npm run bench -- web`; only the newest of each name is kept. */
function measure(name: string, start: number, end: number): void {
  performance.clearMeasures(name);
  performance.measure(name, { start, end });
}

/** The grid, now; the rest once typing pauses. */
function update(): void {
  const t0 = performance.now();
  const text = robotsTa.value;
  if (text !== parsed.text || profile() !== parsed.profile) {
    parsed = { text, profile: profile() };
    robots = crawlerRobots(text, parsed.profile);
    doc = null;
  }
  const t1 = performance.now();
  const allAgents = agentList(agentsIn.value);
  const allUrls = urlList(urlsTa.value);
  agents = allAgents.slice(0, MAX_AGENTS);
  urls = allUrls.slice(0, MAX_URLS);
  const cut: string[] = [];
  if (allAgents.length > agents.length)
    cut.push(`the first ${MAX_AGENTS} of ${allAgents.length} crawlers`);
  if (allUrls.length > urls.length) cut.push(`the first ${MAX_URLS} of ${allUrls.length} URLs`);
  const notes = agentNotes(agents, robots);
  if (cut.length > 0) notes.unshift(`Showing ${cut.join(" and ")}.`);
  const gridNote = notes.join(" ");
  if (changed("gridNote", gridNote)) byId("grid-note").textContent = gridNote;
  const cells = computeGrid(robots, agents, urls);
  const t2 = performance.now();
  renderGrid(cells);
  renderGutter(text);
  const t3 = performance.now();
  measure("robots:parse", t0, t1);
  measure("robots:checks", t1, t2);
  measure("robots:grid-dom", t2, t3);
  root.dataset.saved = "0";
  stateId++;
  clearTimeout(slowTimer);
  slowTimer = setTimeout(postSlow, SLOW_DELAY_MS);
}

/** Hand the newest state to the worker (or, without one, compute it here). */
function postSlow(): void {
  const job: SlowJob = { id: stateId, state: currentState() };
  if (worker === null) {
    void computeSlow(job.state).then((result) => receiveSlow(job.id, result));
  } else if (workerBusy) {
    waiting = true;
  } else {
    workerBusy = true;
    worker.postMessage(job);
  }
}

/** Start the worker from the page's own script; on any failure the page computes in place. */
function startWorker(source: string): void {
  if (source === "" || typeof Worker === "undefined") return;
  try {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    let w: Worker;
    try {
      w = new Worker(url);
    } finally {
      // The constructor resolves a blob: URL as it parses it (HTML's
      // "encoding-parse a URL"), so the worker loads without it.
      URL.revokeObjectURL(url);
    }
    w.addEventListener("message", (ev: MessageEvent<{ id: number; result?: SlowResult }>) => {
      workerBusy = false;
      if (waiting) {
        waiting = false;
        postSlow();
      }
      const { id, result } = ev.data;
      if (result !== undefined) {
        root.dataset.worker = "1";
        receiveSlow(id, result);
      } else if (id === stateId) stopWorker(w);
    });
    w.addEventListener("error", () => stopWorker(w));
    worker = w;
  } catch {
    worker = null;
  }
}

function stopWorker(w: Worker): void {
  w.terminate();
  if (worker !== w) return;
  worker = null;
  workerBusy = false;
  waiting = false;
  postSlow();
}

/** Show the slow answers for state `id` if it is still the newest, then write the link. */
function receiveSlow(id: number, result: SlowResult): void {
  if (id !== stateId) return;
  const t0 = performance.now();
  renderFileNote(result.note);
  renderLint(result.lint);
  renderReport(result.report);
  renderDiff(result.diff);
  renderExplanation();
  lintMarks = result.lint.marks;
  renderMarks();
  const t1 = performance.now();
  const { ms } = result;
  measure("robots:lint", t0 - ms.lint, t0);
  measure("robots:report", t0 - ms.report, t0);
  measure("robots:diff", t0 - ms.diff, t0);
  measure("robots:link", t0 - ms.link, t0);
  measure("robots:slow-dom", t0, t1);
  setTimeout(() => {
    if (id !== stateId) return;
    const t2 = performance.now();
    writeFragment(result.fragment);
    root.dataset.saved = "1";
    measure("robots:link-write", t2, performance.now());
  }, LINK_DELAY_MS);
}

function writeFragment(fragment: string): void {
  lastFragment = `#${fragment}`;
  if (location.hash !== lastFragment) history.replaceState(null, "", lastFragment);
}

/**
 * The grid: rebuilt when the crawlers or URLs change; otherwise only the
 * cells whose verdict or line changed are touched, since an edit of the
 * file mostly changes a few.
 */
function renderGrid(cells: readonly GridCell[]): void {
  const key = JSON.stringify([agents, urls]);
  if (key === gridKey) {
    for (let i = 0; i < cells.length; i++) {
      const was = gridCells[i]!;
      const c = cells[i]!;
      if (was.allowed !== c.allowed || was.line !== c.line) paintCell(gridButtons[i]!, c);
    }
    gridCells = cells;
    return;
  }
  const head = el("tr", {}, [el("th", { scope: "col" }, ["URL"])]);
  for (const a of agents) {
    const r = readAgentName(a);
    head.append(el("th", { scope: "col" }, [r.note === undefined ? a : `${a} (as ${r.token})`]));
  }
  const body = document.createElement("tbody");
  const buttons: HTMLButtonElement[] = [];
  let i = 0;
  for (const url of urls) {
    const row = el("tr", {}, [el("th", { scope: "row", class: "url" }, [url])]);
    for (let j = 0; j < agents.length; j++, i++) {
      const c = cells[i]!;
      const on = selected !== null && selected.agent === c.agent && selected.url === c.url;
      const button = el(
        "button",
        {
          type: "button",
          "data-testid": "result",
          "data-agent": c.agent,
          "data-url": c.url,
          "aria-pressed": on ? "true" : "false",
          title: `${c.agent} · ${c.url}`,
        },
        [el("span", { class: "v" }, []), el("span", { class: "l" }, [])],
      );
      paintCell(button, c);
      buttons.push(button);
      row.append(el("td", {}, [button]));
    }
    body.append(row);
  }
  clear(grid);
  grid.append(el("thead", {}, [head]), body);
  if (urls.length === 0 || agents.length === 0) {
    grid.append(el("caption", {}, ["List at least one crawler and one URL to see verdicts."]));
  }
  gridKey = key;
  gridCells = cells;
  gridButtons = buttons;
}

function paintCell(button: HTMLButtonElement, c: GridCell): void {
  const verdict = c.allowed ? "allowed" : "disallowed";
  button.className = `cell ${verdict}`;
  button.dataset.verdict = verdict;
  button.dataset.line = String(c.line);
  button.children[0]!.textContent = c.allowed ? "✓ allowed" : "✗ disallowed";
  button.children[1]!.textContent = c.line > 0 ? `line ${c.line}` : "no rule";
}

grid.addEventListener("click", (ev) => {
  const button = (ev.target as Element).closest("button.cell");
  if (!(button instanceof HTMLButtonElement)) return;
  selected = { agent: button.dataset.agent ?? "", url: button.dataset.url ?? "" };
  for (const b of grid.querySelectorAll("button.cell")) {
    b.setAttribute("aria-pressed", b === button ? "true" : "false");
  }
  renderExplanation();
  renderMarks();
  const line = Number(button.dataset.line);
  if (line > 0) scrollToLine(line);
});

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function renderGutter(text: string): void {
  const n = lineCount(text);
  if (n === shownLines) return;
  shownLines = n;
  let s = "";
  for (let i = 1; i <= n; i++) s += `${i}\n`;
  gutter.textContent = s;
}

function lineHeight(): number {
  return Number.parseFloat(getComputedStyle(robotsTa).lineHeight) || 20;
}

function syncScroll(): void {
  gutter.scrollTop = robotsTa.scrollTop;
  // Marks span the visible width, so only vertical scrolling moves them: a
  // layer as wide as the longest line made every keystroke slower.
  marks.style.transform = `translateY(${-robotsTa.scrollTop}px)`;
}
robotsTa.addEventListener("scroll", syncScroll);

function scrollToLine(line: number): void {
  const target = (line - 1) * lineHeight() - robotsTa.clientHeight / 3;
  robotsTa.scrollTop = Math.max(0, target);
  syncScroll();
}

/** Put the caret on `line` and focus the editor (from a "go to line" button). */
function goToLine(line: number): void {
  const text = robotsTa.value;
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf("\n", start);
    if (next < 0) break;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  robotsTa.focus();
  robotsTa.setSelectionRange(start, end < 0 ? text.length : end);
  scrollToLine(line);
}

function lineButton(line: number): HTMLElement {
  const b = el("button", { type: "button", class: "goto" }, [`line ${line}`]);
  b.addEventListener("click", () => goToLine(line));
  return b;
}

/**
 * Marks behind the editor's text: lint findings by severity, and the
 * deciding line of the selected cell. The style sheet places each at its
 * line (`--n`), so no layout is read here.
 */
function renderMarks(): void {
  const cell = selectedCell();
  const line = cell === null ? 0 : Number(cell.dataset.line);
  if (!changed("marks", [lintMarks, line])) return;
  clear(marks);
  const add = (line: number, cls: string) => {
    const m = el("div", { class: `mark ${cls}` }, []);
    m.style.setProperty("--n", String(line - 1));
    marks.append(m);
  };
  for (const m of lintMarks) add(m.line, m.severity);
  if (line > 0) add(line, "decide");
}

function selectedCell(): HTMLButtonElement | null {
  if (selected === null) return null;
  for (const b of grid.querySelectorAll<HTMLButtonElement>("button.cell")) {
    if (b.dataset.agent === selected.agent && b.dataset.url === selected.url) return b;
  }
  return null;
}

function renderFileNote(note: string): void {
  if (changed("note", note)) byId("file-note").textContent = note;
}

/** True when `value` differs from what panel `name` shows (and remember it). */
function changed(name: keyof typeof shown, value: unknown): boolean {
  const json = JSON.stringify(value);
  if (shown[name] === json) return false;
  shown[name] = json;
  return true;
}

function renderLint(lint: SlowResult["lint"]): void {
  if (!changed("lint", [lint.counts, lint.total, lint.items])) return;
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

function renderReport(report: SlowResult["report"]): void {
  if (!changed("report", report)) return;
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
          el("th", { scope: "row" }, [e.name]),
          el("td", { class: "status", "data-testid": "crawler-status" }, [STATUS_TEXT[e.status]]),
          el("td", {}, [e.operator]),
          el("td", { title: CRAWLER_CATEGORIES[e.category] }, [
            CRAWLER_CATEGORIES[e.category].split(":")[0] ?? "",
          ]),
          el("td", {}, [
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
          ]),
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

function renderDiff(outcome: SlowResult["diff"]): void {
  if (!changed("diff", outcome)) return;
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
          el("th", { scope: "row" }, [c.agent]),
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

function renderExplanation(): void {
  const cell = selectedCell();
  if (selected === null || cell === null) {
    // The hint only when not already shown; an explanation is redone for every edit.
    if (!changed("explain", "hint")) return;
    clear(explainBox);
    explainBox.append(
      el("p", { class: "hint" }, [
        "Select a cell to see why: the groups that apply, the deciding line and the rules that lost.",
      ]),
    );
    return;
  }
  shown.explain = "";
  clear(explainBox);
  const typed = readAgentName(selected.agent);
  // The grid's reading: an exception the operator documents decides.
  const doc = currentDoc();
  const exception = operatorException(doc.robots, typed.token);
  const readAs = exception?.kind === "fallback" ? exception.token : typed.token;
  const x = createExplainer(doc, readAs);
  const e = x.explain(selected.url);
  if (exception?.kind === "ignores-global") {
    explainBox.append(
      el("h3", {}, [`${typed.name} · ${e.url} → `, el("span", { class: "allowed" }, ["allowed"])]),
      el("p", {}, [`${exception.why}, and no group names it: no rule applies.`]),
    );
    return;
  }
  if (exception !== null) explainBox.append(el("p", {}, [`${exception.why}: read as ${readAs}.`]));
  explainBox.append(
    el("h3", {}, [
      `${typed.name} · ${e.url} → `,
      el("span", { class: e.allowed ? "allowed" : "disallowed" }, [
        e.allowed ? "allowed" : "disallowed",
      ]),
    ]),
    el("p", {}, [`Path matched: ${e.path}`]),
    el("p", {}, [e.groups.summary]),
    el("p", {}, [e.decidedBecause]),
  );
  if (e.context.length > 0) {
    const pre = el("pre", { class: "context" }, []);
    for (const c of e.context) {
      pre.append(
        el("span", { class: c.deciding ? "deciding" : "" }, [
          `${String(c.line).padStart(5)}  ${c.text}\n`,
        ]),
      );
    }
    explainBox.append(pre, el("p", {}, [lineButton(e.line)]));
  }
  if (e.others.length > 0) {
    explainBox.append(
      el("h4", {}, ["Other matching rules"]),
      el(
        "ul",
        {},
        e.others.map((o) =>
          el("li", {}, [lineButton(o.rule.line), ` ${o.rule.kind}: ${o.rule.value} — ${o.why}`]),
        ),
      ),
    );
  }
  const notes = [
    ...(typed.note === undefined ? [] : [typed.note]),
    ...x.fileNotes.map((n) => n.message),
    ...e.notes.map((n) => n.message),
  ];
  if (notes.length > 0) {
    explainBox.append(
      el("h4", {}, ["Notes"]),
      el(
        "ul",
        {},
        notes.map((n) => el("li", {}, [n])),
      ),
    );
  }
}

/** Write the link for what is shown now, without waiting for the worker. */
async function saveFragment(): Promise<void> {
  const id = stateId;
  const fragment = await encodeState(currentState());
  // Another edit may have come while compressing: only the newest state is written.
  if (id === stateId) writeFragment(fragment);
}

window.addEventListener("hashchange", () => {
  if (location.hash === lastFragment) return;
  void decodeState(location.hash).then((s) => {
    if (s !== null) applyState(s);
  });
});

for (const input of [robotsTa, agentsIn, urlsTa, compareTa])
  input.addEventListener("input", update);
profileSel.addEventListener("change", update);

byId("copy-link").addEventListener("click", async () => {
  const status = byId("link-status");
  await saveFragment();
  try {
    await navigator.clipboard.writeText(location.href);
    status.textContent = "Link copied.";
  } catch {
    status.textContent = "The address bar holds the link.";
  }
});

/**
 * The text the editor shows after a live fetch: what crawlers got
 * (docs/protocol.md#status-codes). The body when there is one; for a
 * 404/410 no rules (a comment says why, so every verdict is allowed); for a
 * server error or an unreachable site a stand-in that disallows everything,
 * marked as such. Null when nothing was fetched (refused, error).
 */
function whatCrawlersGot(a: FetchAnswer): string | null {
  const status = typeof a.status === "number" ? `HTTP ${a.status}` : "no answer";
  if (a.kind === "ok") return typeof a.text === "string" ? a.text : null;
  if (a.kind === "unavailable") {
    return `# No robots.txt at ${a.robotsUrl ?? "this site"} (${status}): crawlers read no rules and may fetch everything (RFC 9309 §2.3.1.3).
`;
  }
  if (a.kind === "unreachable") {
    return `# Stand-in: ${a.robotsUrl ?? "the robots.txt"} could not be fetched (${status}), so crawlers must assume everything is disallowed (RFC 9309 §2.3.1.4).
# These two lines say that; they are not the site's file.
User-agent: *
Disallow: /
`;
  }
  return null;
}

async function fetchInto(target: HTMLTextAreaElement): Promise<void> {
  const status = byId("fetch-status");
  const url = byId<HTMLInputElement>("fetch-url").value.trim();
  if (url === "") {
    status.textContent = "Enter a site's URL first.";
    return;
  }
  status.textContent = `Fetching the robots.txt of ${url} …`;
  root.dataset.fetching = "1";
  try {
    // The server keeps what this profile applies of a line the limit cuts.
    const res = await fetch(`api/fetch?url=${encodeURIComponent(url)}&profile=${profile()}`);
    const answer = (await res.json()) as FetchAnswer;
    clear(status);
    status.append(...renderFetchInfo(answer));
    const got = whatCrawlersGot(answer);
    root.dataset.fetched = answer.kind;
    if (got !== null) {
      target.value = got;
      update();
    }
  } catch (err) {
    status.textContent = `The fetch failed: ${(err as Error).message}`;
  } finally {
    root.dataset.fetching = "0";
  }
}

if (location.protocol === "file:") {
  for (const id of ["fetch-url", "fetch-edit", "fetch-compare"]) {
    byId<HTMLInputElement>(id).disabled = true;
  }
  byId("fetch-status").textContent =
    "Live fetch needs the page served by `robots serve`; everything else works here.";
} else {
  byId("fetch-edit").addEventListener("click", () => void fetchInto(robotsTa));
  byId("fetch-compare").addEventListener("click", () => void fetchInto(compareTa));
}

/** Show the state the fragment holds (or a sample); `source` is the page's script, run again as the worker. */
export function startTester(source: string): void {
  startWorker(source);
  void decodeState(location.hash).then((s) => {
    applyState(s ?? SAMPLE);
    root.dataset.ready = "1";
  });
}
