/**
 * Why a grid cell says what it says (docs/web.md): the groups that apply,
 * the deciding line in its context and the rules that lost, from the
 * explainer the CLI's `explain` uses (src/explain).
 */
import type { RobotsDocument } from "../explain/document.js";
import { createExplainer } from "../explain/explain-url.js";
import { readAgentName } from "../match/agent-name.js";
import { operatorException } from "../match/operator-reading.js";
import { clear, el } from "./dom.js";
import type { LineButton } from "./panels.js";

/** The hint shown while no cell is selected. */
export function renderHint(box: HTMLElement): void {
  clear(box);
  box.append(
    el("p", { class: "hint" }, [
      "Select a cell to see why: the groups that apply, the deciding line and the rules that lost.",
    ]),
  );
}

/** The explanation of `agent` (as typed) for `url` in `doc`, into `box`. */
export function renderWhy(
  box: HTMLElement,
  doc: RobotsDocument,
  agent: string,
  url: string,
  lineButton: LineButton,
): void {
  clear(box);
  const typed = readAgentName(agent);
  // The grid's reading: an exception the crawler's operator documents decides.
  const exception = operatorException(doc.robots, typed.token);
  const readAs = exception?.kind === "fallback" ? exception.token : typed.token;
  const x = createExplainer(doc, readAs);
  const e = x.explain(url);
  if (exception?.kind === "ignores-global") {
    box.append(
      el("h3", {}, [`${typed.name} · ${e.url} → `, el("span", { class: "allowed" }, ["allowed"])]),
      el("p", {}, [`${exception.why}, and no group names it: no rule applies.`]),
    );
    return;
  }
  if (exception !== null) box.append(el("p", {}, [`${exception.why}: read as ${readAs}.`]));
  box.append(
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
    box.append(pre, el("p", {}, [lineButton(e.line)]));
  }
  if (e.others.length > 0) {
    box.append(
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
    box.append(
      el("h4", {}, ["Notes"]),
      el(
        "ul",
        {},
        notes.map((n) => el("li", {}, [n])),
      ),
    );
  }
}
