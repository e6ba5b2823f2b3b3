/**
 * Errors thrown for programmer mistakes (verdicts and fetch
 * outcomes are values; only bad arguments throw). Each carries a stable `code`
 * so callers can branch on it without parsing messages.
 */
export const RobotsErrorCode = {
  invalidAgent: "invalid-agent",
  invalidUrl: "invalid-url",
  unsupportedScheme: "unsupported-scheme",
  invalidOption: "invalid-option",
  invalidArgument: "invalid-argument",
  /** A RobotsClient was used after close(). */
  clientClosed: "client-closed",
} as const;

export type RobotsErrorCode = (typeof RobotsErrorCode)[keyof typeof RobotsErrorCode];

export class RobotsError extends Error {
  readonly code: RobotsErrorCode;
  constructor(code: RobotsErrorCode, message: string) {
    super(message);
    this.name = "RobotsError";
    this.code = code;
  }
}
