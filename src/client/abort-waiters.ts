/**
 * Waiting on a shared fetch with a caller's AbortSignal. A crawler often
 * passes one signal (its shutdown signal) to thousands of checks; adding one
 * 'abort' listener per check would pass Node's listener limit and print
 * MaxListenersExceededWarning. Here each signal gets ONE listener, which
 * settles every waiter registered for it; waiters leave the set as soon as
 * their promise settles. An abort rejects with RobotsError `aborted`, the
 * signal's reason as its `cause` (docs/errors.md).
 */
import { abortedError } from "../errors.js";

export class AbortWaiters {
  readonly #waiters = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

  /** `promise`, or a rejection with abortedError(signal) as soon as it aborts. */
  wait<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) {
      promise.catch(() => {});
      return Promise.reject(abortedError(signal));
    }
    let set = this.#waiters.get(signal);
    if (set === undefined) {
      const waiting = new Set<(reason: unknown) => void>();
      set = waiting;
      this.#waiters.set(signal, waiting);
      signal.addEventListener(
        "abort",
        () => {
          const aborted = abortedError(signal);
          for (const reject of waiting) reject(aborted);
          waiting.clear();
        },
        { once: true },
      );
    }
    const waiting = set;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (reason: unknown): void => {
        promise.catch(() => {});
        reject(reason);
      };
      waiting.add(onAbort);
      promise.then(
        (v) => {
          waiting.delete(onAbort);
          resolve(v);
        },
        (e: unknown) => {
          waiting.delete(onAbort);
          reject(e);
        },
      );
    });
  }
}
