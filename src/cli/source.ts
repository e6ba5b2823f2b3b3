/**
 * Where a command's robots.txt comes from: a local file, `-` (stdin), or a
 * URL (fetched through the access-method client, SPEC.md §8).
 */
import type { Profile } from "../parse/profile.js";
import { CliError } from "./errors.js";
import { isUrlArg, readBodyArg } from "./io.js";

export interface RobotsSource {
  /** The body to parse (empty when the fetch outcome carries no body). */
  readonly body: Uint8Array;
  /** What to call it in output: the file name, "<stdin>", or the robots.txt URL. */
  readonly label: string;
  /** For URLs: a one-line description of the fetch outcome (status, cache state). */
  readonly note?: string;
}

export interface SourceOptions {
  readonly profile: Profile;
  /** The crawler's product token, sent in the User-Agent header when fetching. */
  readonly agent?: string;
}

/** Load a robots.txt argument: file, `-`, or http(s) URL. */
export async function loadRobotsSource(
  arg: string,
  _options: SourceOptions,
): Promise<RobotsSource> {
  if (isUrlArg(arg)) {
    throw new CliError(`fetching ${arg} is not available in this build: pass a local file or -`);
  }
  return { body: await readBodyArg(arg), label: arg === "-" ? "<stdin>" : arg };
}
