/**
 * Live fetch in the tester (`robots serve`, docs/web.md): the page asks its
 * server for a site's robots.txt and shows what crawlers got.
 */
import { byId, clear } from "./dom.js";
import { type FetchAnswer, renderFetchInfo } from "./fetch-info.js";

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

async function fetchInto(
  target: HTMLTextAreaElement,
  profile: string,
  update: () => void,
): Promise<void> {
  const root = document.documentElement;
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
    const res = await fetch(`api/fetch?url=${encodeURIComponent(url)}&profile=${profile}`);
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

/**
 * Wire the fetch buttons: "Fetch" fills the editor, "Fetch as deployed
 * version" the comparison, read under `profile()`; `update` redraws. From file:// there is no
 * server to fetch through, and the page says so.
 */
export function setupLiveFetch(
  robotsTa: HTMLTextAreaElement,
  compareTa: HTMLTextAreaElement,
  profile: () => string,
  update: () => void,
): void {
  if (location.protocol === "file:") {
    for (const id of ["fetch-url", "fetch-edit", "fetch-compare"]) {
      byId<HTMLInputElement>(id).disabled = true;
    }
    byId("fetch-status").textContent =
      "Live fetch needs the page served by `robots serve`; everything else works here.";
    return;
  }
  byId("fetch-edit").addEventListener("click", () => void fetchInto(robotsTa, profile(), update));
  byId("fetch-compare").addEventListener(
    "click",
    () => void fetchInto(compareTa, profile(), update),
  );
}
