/**
 * Every call the client makes to a RobotsStore goes through here (docs/protocol.md#access-method
 * "Caching": a shared store can be slow, wrong or down). A call that throws,
 * rejects or does not settle within the timeout becomes a StoreProblem value;
 * the client then goes on without the store, so no check ever waits on a
 * store longer than the timeout and no store error escapes a method.
 */

export type StoreOperation = "get" | "set" | "delete";

/** What went wrong with the store during the load of the copy in use. */
export interface StoreProblem {
  /** The store call that failed. */
  readonly operation: StoreOperation;
  /** `error`: threw or rejected; `timeout`: no answer in time; `invalid`: the answer was not a valid entry. */
  readonly kind: "error" | "timeout" | "invalid";
  /** What went wrong, in words. */
  readonly message: string;
}

/** Default bound on one store call: long enough for a loaded Redis, short enough not to stall a crawler. */
export const STORE_TIMEOUT_MS = 2_000;

/** Longest store error message kept (it may be shown to users). */
const MAX_MESSAGE = 300;

/**
 * Run one store call under `timeoutMs`. The call may be sync or async; its
 * late answer after a timeout is ignored (and its late rejection swallowed).
 */
export async function guardStoreCall<T>(
  operation: StoreOperation,
  call: () => T | Promise<T>,
  timeoutMs: number,
  /** Cancel functions of pending calls, called by the owner's close(). */
  pendingCalls?: Set<() => void>,
): Promise<{ readonly value: T; readonly problem: null } | { readonly problem: StoreProblem }> {
  let pending: Promise<T>;
  try {
    pending = Promise.resolve(call());
  } catch (err) {
    return { problem: failed(operation, err) };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancel: (() => void) | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
    cancel = () => {
      clearTimeout(timer);
      resolve("timeout");
    };
    pendingCalls?.add(cancel);
  });
  try {
    const settled = await Promise.race([
      pending.then(
        (value) => ({ value }),
        (err: unknown) => ({ err }),
      ),
      timeout,
    ]);
    if (settled === "timeout") {
      pending.catch(() => {});
      return {
        problem: {
          operation,
          kind: "timeout",
          message: `store ${operation} did not answer within ${timeoutMs} ms`,
        },
      };
    }
    if ("err" in settled) return { problem: failed(operation, settled.err) };
    return { value: settled.value, problem: null };
  } finally {
    clearTimeout(timer);
    if (cancel !== undefined) pendingCalls?.delete(cancel);
  }
}

function failed(operation: StoreOperation, err: unknown): StoreProblem {
  let message: string;
  try {
    message = err instanceof Error ? err.message : String(err);
  } catch {
    message = "unprintable error";
  }
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
  return { operation, kind: "error", message: `store ${operation} failed: ${message}` };
}
