/**
 * What `/api/fetch` answers (src/cli/serve-fetch.ts) and how the page shows
 * it: the outcome as the client sees it (docs/protocol.md#access-method), status, redirects,
 * size, truncation and encoding notes.
 */
import { groupDigits } from "../protocol/size-limit.js";
import { el } from "./dom.js";

export interface FetchAnswer {
  readonly kind: "ok" | "unavailable" | "unreachable" | "refused" | "error";
  readonly robotsUrl?: string;
  readonly status?: number | null;
  readonly redirects?: readonly { status: number; from: string; to: string }[];
  readonly bytes?: number;
  readonly truncated?: boolean;
  readonly encoding?: string;
  readonly contentType?: string | null;
  readonly message?: string;
  readonly notes?: readonly string[];
  /** The body as text, for kind "ok". */
  readonly text?: string;
}

const MEANING = {
  ok: "the rules below are the site's",
  unavailable: "no robots.txt: crawlers may fetch everything (RFC 9309 §2.3.1.3)",
  unreachable:
    "server error: crawlers must assume everything is disallowed for now (RFC 9309 §2.3.1.4)",
  refused: "not fetched",
  error: "not fetched",
} as const;

/** The nodes describing `a`, for the fetch status line. */
export function renderFetchInfo(a: FetchAnswer): Node[] {
  const kind = a.kind in MEANING ? a.kind : "error";
  const facts: string[] = [];
  if (a.robotsUrl !== undefined) facts.push(a.robotsUrl);
  if (a.status !== undefined && a.status !== null) facts.push(`HTTP ${a.status}`);
  for (const r of a.redirects ?? []) facts.push(`redirect ${r.status} → ${r.to}`);
  if (a.bytes !== undefined && kind === "ok") facts.push(`${groupDigits(a.bytes)} bytes`);
  if (a.encoding !== undefined && a.encoding !== "identity") facts.push(`${a.encoding} encoded`);
  if (a.truncated === true) facts.push("cut at 500 KiB: what follows is not read");
  const out: Node[] = [
    el("strong", { "data-kind": kind }, [`${kind}: ${MEANING[kind]}`]),
    document.createTextNode(facts.length > 0 ? ` — ${facts.join(" · ")}` : ""),
  ];
  if (a.message !== undefined) out.push(el("span", { class: "fetch-msg" }, [` (${a.message})`]));
  for (const n of a.notes ?? []) out.push(el("span", { class: "fetch-note" }, [n]));
  return out;
}
