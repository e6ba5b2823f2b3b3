/**
 * The robots.txt tester page (docs/web.md). Every answer comes from the core
 * modules, in the page: parse and match (the grid), explain (a cell's
 * why), lint, the crawler report and diff. The grid is recomputed in the
 * input handler, so an edit shows at the next paint; lint, report, diff and
 * the link follow a moment later (SLOW_DELAY_MS) so typing in a 500 KiB file
 * stays responsive (`npm run bench -- web` measures edit → grid).
 * All text from the file, the inputs or a fetch reaches the page through
 * textContent and attributes, never as HTML.
 */

import { CRAWLER_PURPOSES } from "../data/crawlers.js";
import { parseDocument, type RobotsDocument } from "../explain/document.js";
import { createExplainer } from "../explain/explain-url.js";
import type { Diagnostic } from "../lint/diagnostics.js";
import { lintRobotsTxt } from "../lint/lint-robots-txt.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { groupDigits } from "../protocol/size-limit.js";
import { crawlerReport } from "../report/crawler-report.js";
import { byId, clear, el } from "./dom.js";
import {
  agentList,
  computeDiff,
  computeGrid,
  type DiffOutcome,
  type GridCell,
  MAX_AGENTS,
  MAX_URLS,
  urlList,
} from "./engine.js";
import { type FetchAnswer, renderFetchInfo } from "./fetch-info.js";
import { decodeState, encodeState, type PageState } from "./fragment.js";

/** Lint, report, diff and the link wait this long after the last edit. */
const SLOW_DELAY_MS = 120;
/** Findings listed; the rest are counted. */
const MAX_DIAGNOSTICS = 300;
/** Lines marked in the editor. */
const MAX_MARKS = 2000;
/** Changes listed; the rest are counted. */
const MAX_CHANGES = 500;

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

let doc: RobotsDocument = parseDocument("");
let agents: string[] = [];
let urls: string[] = [];
let selected: Selection | null = null;
let shownLines = -1;
let slowTimer: ReturnType<typeof setTimeout> | undefined;
let lastFragment = "";
let diagnostics: readonly Diagnostic[] = [];

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

/** The grid, now; the rest after SLOW_DELAY_MS. */
function update(): void {
  doc = parseDocument(robotsTa.value, { profile: profile() });
  const allAgents = agentList(agentsIn.value);
  const allUrls = urlList(urlsTa.value);
  agents = allAgents.slice(0, MAX_AGENTS);
  urls = allUrls.slice(0, MAX_URLS);
  const cut: string[] = [];
  if (allAgents.length > agents.length)
    cut.push(`the first ${MAX_AGENTS} of ${allAgents.length} crawlers`);
  if (allUrls.length > urls.length) cut.push(`the first ${MAX_URLS} of ${allUrls.length} URLs`);
  byId("grid-note").textContent = cut.length > 0 ? `Showing ${cut.join(" and ")}.` : "";
  renderGrid(computeGrid(doc, agents, urls));
  renderGutter();
  root.dataset.saved = "0";
  clearTimeout(slowTimer);
  slowTimer = setTimeout(updateSlow, SLOW_DELAY_MS);
}

function updateSlow(): void {
  renderFileNote();
  renderLint();
  renderReport();
  renderDiff();
  renderExplanation();
  renderMarks();
  void saveFragment();
}

function renderGrid(cells: readonly GridCell[]): void {
  const head = el("tr", {}, [el("th", { scope: "col" }, ["URL"])]);
  for (const a of agents) head.append(el("th", { scope: "col" }, [a]));
  const body = document.createElement("tbody");
  let i = 0;
  for (const url of urls) {
    const row = el("tr", {}, [el("th", { scope: "row", class: "url" }, [url])]);
    for (let j = 0; j < agents.length; j++, i++) {
      const c = cells[i]!;
      const verdict = c.allowed ? "allowed" : "disallowed";
      const on = selected !== null && selected.agent === c.agent && selected.url === c.url;
      const button = el(
        "button",
        {
          type: "button",
          class: `cell ${verdict}`,
          "data-testid": "result",
          "data-agent": c.agent,
          "data-url": c.url,
          "data-verdict": verdict,
          "data-line": String(c.line),
          "aria-pressed": on ? "true" : "false",
          title: `${c.agent} · ${c.url}`,
        },
        [
          el("span", { class: "v" }, [c.allowed ? "✓ allowed" : "✗ disallowed"]),
          el("span", { class: "l" }, [c.line > 0 ? `line ${c.line}` : "no rule"]),
        ],
      );
      row.append(el("td", {}, [button]));
    }
    body.append(row);
  }
  clear(grid);
  grid.append(el("thead", {}, [head]), body);
  if (urls.length === 0 || agents.length === 0) {
    grid.append(el("caption", {}, ["List at least one crawler and one URL to see verdicts."]));
  }
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

function renderGutter(): void {
  const n = lineCount(robotsTa.value);
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
  marks.style.transform = `translate(${-robotsTa.scrollLeft}px, ${-robotsTa.scrollTop}px)`;
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

/** Marks behind the editor's text: lint findings by severity, and the deciding line of the selected cell. */
function renderMarks(): void {
  const lh = lineHeight();
  const top = Number.parseFloat(getComputedStyle(robotsTa).paddingTop) || 0;
  clear(marks);
  const add = (line: number, cls: string) => {
    const m = el("div", { class: `mark ${cls}` }, []);
    m.style.top = `${top + (line - 1) * lh}px`;
    m.style.height = `${lh}px`;
    marks.append(m);
  };
  const done = new Set<number>();
  for (const d of diagnostics) {
    if (done.size >= MAX_MARKS) break;
    if (done.has(d.line)) continue;
    done.add(d.line);
    add(d.line, d.severity);
  }
  const cell = selectedCell();
  const line = cell === null ? 0 : Number(cell.dataset.line);
  if (line > 0) add(line, "decide");
}

function selectedCell(): HTMLButtonElement | null {
  if (selected === null) return null;
  for (const b of grid.querySelectorAll<HTMLButtonElement>("button.cell")) {
    if (b.dataset.agent === selected.agent && b.dataset.url === selected.url) return b;
  }
  return null;
}

function renderFileNote(): void {
  const note = byId("file-note");
  note.textContent =
    doc.full === null
      ? `${groupDigits(doc.body.length)} bytes, ${groupDigits(doc.lineCount)} lines, ${doc.robots.groups.length} groups.`
      : `${groupDigits(doc.body.length)} bytes: crawlers read only the first ${groupDigits(doc.sizeLimit)} (500 KiB), which end in line ${doc.lastLineRead} of ${doc.lineCount}. The grid shows what they see.`;
}

function renderLint(): void {
  const result = lintRobotsTxt(robotsTa.value, { profile: profile(), lines: false });
  diagnostics = result.diagnostics;
  const list = byId("diagnostics");
  clear(list);
  const { error, warning, info } = result.counts;
  byId("lint-count").textContent =
    diagnostics.length === 0
      ? "— no findings"
      : `— ${error} error${error === 1 ? "" : "s"}, ${warning} warning${warning === 1 ? "" : "s"}, ${info} note${info === 1 ? "" : "s"}`;
  for (const d of diagnostics.slice(0, MAX_DIAGNOSTICS)) {
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
  if (diagnostics.length > MAX_DIAGNOSTICS) {
    list.append(
      el("li", { class: "more" }, [
        `… and ${diagnostics.length - MAX_DIAGNOSTICS} more (robots lint lists them all)`,
      ]),
    );
  }
}

const STATUS_TEXT = { blocked: "blocked", partial: "partly blocked", allowed: "allowed" } as const;

function renderReport(): void {
  const report = crawlerReport(doc.robots);
  const table = byId<HTMLTableElement>("report");
  clear(table);
  table.append(
    el("thead", {}, [
      el(
        "tr",
        {},
        ["Crawler", "Operator", "Purpose", "Status", "Decided by"].map((h) =>
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
  for (const e of report.crawlers) {
    const ai = e.crawler.purpose.startsWith("ai-");
    counts[ai ? "ai" : "other"][e.status]++;
    body.append(
      el(
        "tr",
        {
          "data-testid": "crawler",
          "data-token": e.crawler.token,
          "data-status": e.status,
          class: e.status,
        },
        [
          el("th", { scope: "row" }, [e.crawler.token]),
          el("td", {}, [e.crawler.operator]),
          el("td", { title: CRAWLER_PURPOSES[e.crawler.purpose] }, [
            CRAWLER_PURPOSES[e.crawler.purpose].split(":")[0] ?? "",
          ]),
          el("td", { class: "status" }, [STATUS_TEXT[e.status]]),
          el("td", {}, [
            e.line > 0
              ? lineButton(e.line)
              : e.source === "none" || e.source === "ignores-global"
                ? "no group applies"
                : "no rule for /",
          ]),
        ],
      ),
    );
  }
  table.append(body);
  const say = (c: { blocked: number; partial: number; allowed: number }) =>
    `${c.blocked} blocked, ${c.partial} partly blocked, ${c.allowed} allowed`;
  const others = report.otherAgents.map((o) => o.token);
  byId("report-summary").textContent =
    `AI crawlers: ${say(counts.ai)}. Other crawlers: ${say(counts.other)}.` +
    (others.length > 0
      ? ` The file also names: ${others.slice(0, 20).join(", ")}${others.length > 20 ? ", …" : ""}.`
      : "");
}

function renderDiff(): void {
  const summary = byId("diff-summary");
  const table = byId<HTMLTableElement>("changes");
  clear(table);
  if (compareTa.value === "") {
    summary.textContent = "No other version given.";
    return;
  }
  const before = parseDocument(compareTa.value, { profile: profile() });
  const outcome: DiffOutcome = computeDiff(before.robots, doc.robots, agents, urls);
  const { changes } = outcome;
  summary.textContent =
    `${changes.length === 0 ? "No verdict changes" : `${changes.length} verdict change${changes.length === 1 ? "" : "s"}`} ` +
    `from the deployed version to the edited one, over ${outcome.checked} URLs and paths (the listed URLs and the edges of every pattern) for ${outcome.agents.join(", ")}.`;
  if (changes.length === 0) return;
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
  for (const c of changes.slice(0, MAX_CHANGES)) {
    body.append(
      el(
        "tr",
        {
          "data-testid": "change",
          "data-agent": c.agent.label,
          "data-url": c.url,
          "data-before": c.before.allowed ? "allowed" : "disallowed",
          "data-after": c.after.allowed ? "allowed" : "disallowed",
        },
        [
          el("th", { scope: "row" }, [c.agent.label]),
          el("td", { class: "url" }, [c.url]),
          el("td", { class: c.before.allowed ? "allowed" : "disallowed" }, [side(c.before)]),
          el("td", { class: c.after.allowed ? "allowed" : "disallowed" }, [side(c.after)]),
        ],
      ),
    );
  }
  table.append(body);
  if (changes.length > MAX_CHANGES) {
    table.append(el("caption", {}, [`The first ${MAX_CHANGES} of ${changes.length} changes.`]));
  }
}

function renderExplanation(): void {
  clear(explainBox);
  const cell = selectedCell();
  if (selected === null || cell === null) {
    explainBox.append(
      el("p", { class: "hint" }, [
        "Select a cell to see why: the groups that apply, the deciding line and the rules that lost.",
      ]),
    );
    return;
  }
  const x = createExplainer(doc, selected.agent);
  const e = x.explain(selected.url);
  explainBox.append(
    el("h3", {}, [
      `${e.agent} · ${e.url} → `,
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
  const notes = [...x.fileNotes.map((n) => n.message), ...e.notes.map((n) => n.message)];
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

async function saveFragment(): Promise<void> {
  const state = currentState();
  const fragment = await encodeState(state);
  // Another edit may have come while compressing: only the newest state is written.
  if (robotsTa.value !== state.robots || compareTa.value !== state.compare) return;
  if (agentsIn.value !== state.agents || urlsTa.value !== state.urls || profile() !== state.profile)
    return;
  lastFragment = `#${fragment}`;
  if (location.hash !== lastFragment) history.replaceState(null, "", lastFragment);
  root.dataset.saved = "1";
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
    const res = await fetch(`api/fetch?url=${encodeURIComponent(url)}`);
    const answer = (await res.json()) as FetchAnswer;
    clear(status);
    status.append(...renderFetchInfo(answer));
    if (answer.kind === "ok" && typeof answer.text === "string") {
      target.value = answer.text;
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

void decodeState(location.hash).then((s) => {
  applyState(s ?? SAMPLE);
  root.dataset.ready = "1";
});
