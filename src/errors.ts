/**
 * The one error type of the package. Verdicts, fetch outcomes and
 * diagnostics are values; what throws (or rejects) is a RobotsError with a
 * stable `code`, so callers branch on the code, never on the message.
 * docs/errors.md lists the codes, when each is thrown and what to do.
 */
export const RobotsErrorCode = {
  /** An agent that is not a product token, or not a string. */
  invalidAgent: "invalid-agent",
  /** A URL that is not a string, or not an absolute URL with a host. */
  invalidUrl: "invalid-url",
  /** A URL whose scheme the access method does not fetch (only http and https). */
  unsupportedScheme: "unsupported-scheme",
  /** An option out of range or of the wrong type. */
  invalidOption: "invalid-option",
  /** An argument of the wrong type (a number for a body, null for a file). */
  invalidArgument: "invalid-argument",
  /** A RobotsClient was used after close(). */
  clientClosed: "client-closed",
  /** The caller's AbortSignal aborted the call (`cause` holds the signal's reason). */
  aborted: "aborted",
  /** A shared store could not be reached: closed, disconnected, or failing fast while degraded. */
  storeUnavailable: "store-unavailable",
  /** A shared store did not answer within its timeout. */
  storeTimeout: "store-timeout",
  /** A shared store answered, but the call failed (`cause` holds the store's own error). */
  storeFailed: "store-failed",
  /** A shared store's entry is not one this package wrote for that origin. */
  storeInvalidEntry: "store-invalid-entry",
  /** An update of a shared store's entry lost the race to other writers too often. */
  storeConflict: "store-conflict",
} as const;

/** One of the codes of RobotsErrorCode: what a RobotsError is about. */
export type RobotsErrorCode = (typeof RobotsErrorCode)[keyof typeof RobotsErrorCode];

/** Options of a RobotsError: the underlying error, when there is one. */
export interface RobotsErrorOptions {
  /** What caused it (a network or Redis error), kept for logs and for branching on its details. */
  readonly cause?: unknown;
}

/** The one error type of every entry: a programmer mistake or a store failure, with a stable `code`. */
export class RobotsError extends Error {
  /** The stable code of the mistake (docs/errors.md). */
  readonly code: RobotsErrorCode;
  constructor(code: RobotsErrorCode, message: string, options?: RobotsErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RobotsError";
    this.code = code;
  }
}

/**
 * The rejection of a call its caller's `signal` aborted: a RobotsError
 * `aborted` whose `cause` is the signal's reason. A reason that is already a
 * RobotsError (the client's own `client-closed`) is kept as it is.
 */
export function abortedError(signal: AbortSignal): RobotsError {
  const reason: unknown = signal.reason;
  if (reason instanceof RobotsError) return reason;
  return new RobotsError("aborted", `the call was aborted: ${describe(reason)}`, {
    cause: reason,
  });
}

/** Throw abortedError(signal) when `signal` has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal);
}

function describe(reason: unknown): string {
  try {
    const text = reason instanceof Error ? reason.message || reason.name : String(reason);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return "an unprintable reason";
  }
}
