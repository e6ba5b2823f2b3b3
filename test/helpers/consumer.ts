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
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./shared.js";
import { run } from "./subprocess.js";

/**
 * The compiler options of a consumer: ES modules with top-level await, strict,
 * libraries checked (the package's declarations and those they import;
 * TypeScript's own lib files are not the package's to check), and the
 * libraries tsc gives an ES2022 target by default (DOM with its iterables:
 * `Headers` is iterable) plus `using`.
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
  skipDefaultLibCheck: true,
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
 * What `npm pack` reads: package.json's `files`, the files npm always adds
 * and the ignore files. Their paths and bytes name a packed tarball in the cache; reading
 * more than npm packs only costs a needless pack.
 */
function packInputsHash(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    files: string[];
  };
  const hash = createHash("sha256");
  const add = (rel: string): void => {
    const abs = path.join(REPO_ROOT, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(path.posix.join(rel, name));
    } else {
      hash.update(`${rel}\0${statSync(abs).size}\0`).update(readFileSync(abs));
    }
  };
  for (const rel of [
    "package.json",
    ".gitignore",
    ".npmignore",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    ...pkg.files,
  ])
    add(rel);
  return hash.digest("hex").slice(0, 32);
}

/** Where packed tarballs are kept, named by the hash of what they were packed from. */
const PACK_CACHE = path.join(REPO_ROOT, "dist", ".pack-cache");

/**
 * `npm pack` of the checkout (already built: no scripts run), made once for
 * every test file of a build: the tarball is kept in dist/.pack-cache under
 * the hash of what npm packs, and a test file that finds it there unpacks
 * it. A file that does not packs into a folder of its own and renames the
 * tarball into place, so test files running at once never read a partial
 * one; a tarball of another build is removed then.
 */
let packed: Promise<string> | undefined;

export function packedTarball(): Promise<string> {
  packed ??= (async () => {
    const cached = path.join(PACK_CACHE, `${packInputsHash()}.tgz`);
    if (existsSync(cached)) return cached;
    mkdirSync(PACK_CACHE, { recursive: true });
    const dir = mkdtempSync(path.join(PACK_CACHE, "packing-"));
    try {
      const pack = await run(
        ["npm", "pack", "--json", "--ignore-scripts", "--pack-destination", dir],
        { cwd: REPO_ROOT },
      );
      assert.equal(pack.code, 0, `npm pack failed:\n${pack.stderr}`);
      const [info] = JSON.parse(pack.stdout) as [{ filename: string }];
      const others = readdirSync(PACK_CACHE).filter(
        (f) => f.endsWith(".tgz") && f !== path.basename(cached),
      );
      for (const old of others) {
        rmSync(path.join(PACK_CACHE, old), { force: true });
      }
      renameSync(path.join(dir, info.filename), cached);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return cached;
  })();
  return packed;
}

/** The packed checkout (see packedTarball), unpacked as `dir`/node_modules/robots-exclusion. */
export async function installPackedPackage(dir: string): Promise<void> {
  const tarball = await packedTarball();
  const target = path.join(dir, "node_modules", "robots-exclusion");
  mkdirSync(target, { recursive: true });
  // npm's tarballs hold one top folder, package/.
  const tar = await run(["tar", "-xzf", tarball, "-C", target, "--strip-components=1"]);
  assert.equal(tar.code, 0, `unpacking ${path.basename(tarball)} failed:\n${tar.stderr}`);
  assert.ok(
    existsSync(path.join(target, "dist/src/entries/index.d.ts")),
    "the tarball holds the built types: run `npx tsc -p tsconfig.json` first",
  );
}
