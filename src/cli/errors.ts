/** A CLI failure: printed as one line on stderr, never a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Exit codes shared by every command (the reference's command-line contract). */
export const EXIT = { ok: 0, allowed: 0, disallowed: 1, findings: 1, usage: 2 } as const;
