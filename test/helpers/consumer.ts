/**
 * A consumer project of the package as npm installs it: the tarball that
 * `npm pack` makes of the built tree, unpacked into the project's
 * node_modules/robots-exclusion, beside a package.json of the consumer's own,
 * so `robots-exclusion/…` resolves through the tarball's `exports` to the
 * files it ships (never a self-reference into the checkout). The project
 * sits under dist/, so what a consumer installs beside the package
 * (@types/node, redis, the @crawlee parts) resolves from the repository's
 * node_modules. tsc compiles it as a user's would (nodenext, strict); every
 * step that fails throws with its output, so a test built on it fails and
 * never skips.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./shared.js";
import { run } from "./subprocess.js";

/**
 * The compiler options of a consumer: ES modules with top-level await, strict,
 * libraries checked, and the libraries tsc gives an ES2022 target by default
 * (DOM with its iterables: `Headers` is iterable) plus `using`.
 */
export const CONSUMER_COMPILER_OPTIONS = {
  target: "ES2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  lib: ["ES2022", "DOM", "DOM.Iterable", "esnext.disposable"],
  types: ["node"],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
} as const;

export interface TscResult {
  /** tsc's exit status: 0 when every file compiled. */
  readonly code: number | null;
  /** Its diagnostics, one per line as `file(line,col): error TSnnnn: text` (`--pretty false`). */
  readonly output: string;
}

export interface ConsumerProject {
  /** The project's directory (its package.json, tsconfig.json and node_modules). */
  readonly dir: string;
  /** Writes `text` at `relPath` in the project, making its folders. */
  write(relPath: string, text: string): void;
  /** tsc over `files` (paths in the project) with the consumer's options and `extra` ones. */
  typeCheck(
    files: readonly string[],
    extra?: Readonly<Record<string, unknown>>,
  ): Promise<TscResult>;
}

/** Runs `body` in a fresh consumer project of the packed package, then removes the project. */
export async function withConsumerProject<T>(
  body: (project: ConsumerProject) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(REPO_ROOT, "dist", "consumer-"));
  try {
    await installPackedPackage(dir);
    const write = (relPath: string, text: string): void => {
      const file = path.join(dir, relPath);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    write(
      "package.json",
      `${JSON.stringify({ name: "consumer", private: true, type: "module" })}\n`,
    );
    return await body({
      dir,
      write,
      async typeCheck(files, extra = {}) {
        const tsconfig = { compilerOptions: { ...CONSUMER_COMPILER_OPTIONS, ...extra }, files };
        write("tsconfig.json", JSON.stringify(tsconfig, null, 2));
        const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
        const r = await run([process.execPath, tsc, "-p", dir, "--pretty", "false"], { cwd: dir });
        return { code: r.code, output: `${r.stdout}${r.stderr}` };
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm pack` of the checkout (already built: no scripts run), made once per
 * test process and removed when it exits: every consumer project of a test
 * file unpacks the same tarball.
 */
let packed: Promise<string> | undefined;

function packOnce(): Promise<string> {
  packed ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "robots-pack-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const pack = await run(
      ["npm", "pack", "--json", "--ignore-scripts", "--pack-destination", dir],
      { cwd: REPO_ROOT },
    );
    assert.equal(pack.code, 0, `npm pack failed:\n${pack.stderr}`);
    const [info] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
    assert.ok(
      info.files.some((f) => f.path === "dist/src/entries/index.d.ts"),
      "the tarball holds the built types: run `npx tsc -p tsconfig.json` first",
    );
    return path.join(dir, info.filename);
  })();
  return packed;
}

/** The packed checkout (see packOnce), unpacked as `dir`/node_modules/robots-exclusion. */
export async function installPackedPackage(dir: string): Promise<void> {
  const tarball = await packOnce();
  const target = path.join(dir, "node_modules", "robots-exclusion");
  mkdirSync(target, { recursive: true });
  // npm's tarballs hold one top folder, package/.
  const tar = await run(["tar", "-xzf", tarball, "-C", target, "--strip-components=1"]);
  assert.equal(tar.code, 0, `unpacking ${path.basename(tarball)} failed:\n${tar.stderr}`);
}
