/**
 * The tester page's worker: answers each posted state with computeSlow
 * (lint, report, comparison, link), off the thread that paints the page.
 * It runs from the page's own script (src/web/main.ts), so it needs no
 * other file and works from file://.
 */
import type { PageState } from "./fragment.js";
import { computeSlow } from "./slow.js";

/** A job: the state and the number the page gave it. */
export interface SlowJob {
  readonly id: number;
  readonly state: PageState;
}

/** The members of a dedicated worker's global scope used here (the DOM library types a window). */
interface WorkerScope {
  addEventListener(type: "message", listener: (ev: { data: SlowJob }) => void): void;
  postMessage(message: unknown): void;
}

export function serveWorker(): void {
  const scope = globalThis as unknown as WorkerScope;
  scope.addEventListener("message", (ev) => {
    const { id, state } = ev.data;
    void computeSlow(state).then(
      (result) => scope.postMessage({ id, result }),
      (err: unknown) => scope.postMessage({ id, error: String(err) }),
    );
  });
}
