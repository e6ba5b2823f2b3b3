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

import { parseDocument, type RobotsDocument } from "../explain/document.js";
import { readAgentName } from "../match/agent-name.js";
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
  GridMatchers,
  ListInput,
  MAX_AGENTS,
  MAX_URLS,
  TextBytes,
  urlList,
} from "./engine.js";
import { renderHint, renderWhy } from "./explanation.js";
import { decodeState, encodeState, type PageState } from "./fragment.js";
import { setupLiveFetch } from "./live-fetch.js";
import { crawlerName, renderDiff, renderLint, renderReport } from "./panels.js";
import { computeSlow, type SlowResult } from "./slow.js";
import type { SlowJob } from "./worker.js";

/** Lint, report, diff and the link are computed once typing pauses this long. */
const SLOW_DELAY_MS = 150;
/**
 * The address bar gets the new link this long after the answers are shown,
 * if no edit came meanwhile: with a 500 KiB file the link is a 100+ KiB URL,
 * and writing it (history.replaceState) blocks the page's thread
 * (docs/performance-decisions.md, Tester page).
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
/** The grid's matchers, kept across edits: an edit recompiles only the crawlers whose rules it changed. */
const matchers = new GridMatchers();
/** The file's bytes, kept across edits: an edit re-encodes only what it changed. */
const fileBytes = new TextBytes();
const agentInput = new ListInput(agentList);
const urlInput = new ListInput(urlList);
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
    robots = crawlerRobots(text, parsed.profile, fileBytes);
    doc = null;
  }
  const t1 = performance.now();
  const allAgents = agentInput.of(agentsIn.value);
  const allUrls = urlInput.of(urlsTa.value);
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
  const cells = computeGrid(robots, agents, urls, matchers);
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
  if (changed("lint", [result.lint.counts, result.lint.total, result.lint.items])) {
    renderLint(result.lint, lineButton);
  }
  if (changed("report", result.report)) renderReport(result.report, lineButton);
  if (changed("diff", result.diff)) renderDiff(result.diff);
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
    const as = r.note === undefined ? [] : [" ", el("span", { class: "as" }, [`(as ${r.token})`])];
    head.append(el("th", { scope: "col", class: "agent" }, [crawlerName(a), ...as]));
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
  // On a phone each URL is a row of its own above its verdicts (style.css): one column per crawler.
  grid.style.setProperty("--agents", String(Math.max(1, agents.length)));
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

function renderExplanation(): void {
  const cell = selectedCell();
  if (selected === null || cell === null) {
    // The hint only when not already shown; an explanation is redone for every edit.
    if (changed("explain", "hint")) renderHint(explainBox);
    return;
  }
  shown.explain = "";
  renderWhy(explainBox, currentDoc(), selected.agent, selected.url, lineButton);
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

setupLiveFetch(robotsTa, compareTa, profile, update);

/** Show the state the fragment holds (or a sample); `source` is the page's script, run again as the worker. */
export function startTester(source: string): void {
  startWorker(source);
  void decodeState(location.hash).then((s) => {
    applyState(s ?? SAMPLE);
    root.dataset.ready = "1";
  });
}
