/**
 * Colour only on a terminal, and never when NO_COLOR is set to a non-empty
 * value (https://no-color.org). Output piped to a file or another program is
 * always plain, so golden files and scripts never see escape codes.
 */
import { cliIo } from "./run-io.js";

export interface Paint {
  readonly enabled: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

/** Should output written to `stream` be coloured? */
export function colorEnabled(
  stream: { readonly isTTY?: boolean } = cliIo().stdout,
  env: Readonly<Record<string, string | undefined>> = cliIo().env,
): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

function sgr(open: number, close: number): (s: string) => string {
  return (s) => `\u001b[${open}m${s}\u001b[${close}m`;
}

const identity = (s: string): string => s;

/** Colour functions that do nothing when `enabled` is false. */
export function makePaint(enabled: boolean = colorEnabled()): Paint {
  if (!enabled) {
    return {
      enabled,
      red: identity,
      green: identity,
      yellow: identity,
      bold: identity,
      dim: identity,
    };
  }
  return {
    enabled,
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    bold: sgr(1, 22),
    dim: sgr(2, 22),
  };
}
