/**
 * The versions of robots.txt an audit compares requests with: one file (in
 * force at all times), every committed version of a file in a git repository
 * (`git:<path>`, each in force from its commit time), or a directory of dated
 * copies (`robots-2026-11-01T00:00:00Z.txt`, each in force from its date).
 * git runs with argument arrays, never through a shell.
 */
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { RobotsVersion } from "../audit/tally.js";
import { RobotsError } from "../errors.js";

const run = promisify(execFile);
/** git output read at most (a robots.txt is read to 500 KiB; history lists are small). */
const GIT_MAX = 64 * 1024 * 1024;

function unreadable(what: string, err: unknown): RobotsError {
  const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return new RobotsError("unreadable-input", `cannot read ${what}: ${why}`, { cause: err });
}

/** Every committed version of `file` (relative to `cwd`), oldest first, each from its commit time. */
export async function gitVersions(file: string, cwd = process.cwd()): Promise<RobotsVersion[]> {
  let log: string;
  try {
    ({ stdout: log } = await run("git", ["log", "--format=%H %ct", "--", file], {
      cwd,
      maxBuffer: GIT_MAX,
    }));
  } catch (err) {
    throw unreadable(`the git history of ${file}`, err);
  }
  const commits = log
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => {
      const [hash, secs] = l.split(" ");
      return { hash: hash!, since: Number(secs) * 1000 };
    })
    .reverse();
  if (commits.length === 0) throw unreadable(`git:${file}`, "no commit holds it");
  const out: RobotsVersion[] = [];
  for (const c of commits) {
    let body = "";
    try {
      ({ stdout: body } = await run("git", ["show", `${c.hash}:./${file}`], {
        cwd,
        maxBuffer: GIT_MAX,
        encoding: "utf8",
      }));
    } catch {
      // The commit deleted the file: no robots.txt, everything allowed (docs/protocol.md#access-method).
      body = "";
    }
    out.push({
      body,
      since: c.since,
      label: `${c.hash.slice(0, 12)} (${new Date(c.since).toISOString()})`,
    });
  }
  return out;
}

/** The date in a name `robots-<date>.txt`, NaN when it has none. */
export function datedName(name: string): number {
  if (!name.startsWith("robots-") || !name.endsWith(".txt")) return Number.NaN;
  return Date.parse(name.slice(7, -4));
}

/** The dated copies in `dir`, each in force from the date in its name. */
export async function dirVersions(dir: string): Promise<RobotsVersion[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw unreadable(dir, err);
  }
  const out: RobotsVersion[] = [];
  for (const name of names.sort()) {
    const since = datedName(name);
    if (Number.isNaN(since)) continue;
    try {
      out.push({ body: await readFile(path.join(dir, name)), since, label: name });
    } catch (err) {
      throw unreadable(path.join(dir, name), err);
    }
  }
  if (out.length === 0) {
    throw unreadable(dir, "no file named robots-<date>.txt, e.g. robots-2026-11-01T00:00:00Z.txt");
  }
  return out;
}

/** One robots.txt file, in force at all times. */
export async function fileVersion(file: string): Promise<RobotsVersion[]> {
  try {
    return [{ body: await readFile(file), since: Number.NEGATIVE_INFINITY, label: file }];
  } catch (err) {
    throw unreadable(file, err);
  }
}
