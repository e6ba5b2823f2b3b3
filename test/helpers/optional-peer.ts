/**
 * An optional peer dependency that no entry loads (docs/integrations.md):
 * every entry of package.json's `exports`, imported in one Node process
 * whose module resolve hook refuses the peer's packages, then the peer
 * itself as the control, which the hook must refuse.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./shared.js";
import { run } from "./subprocess.js";

export interface PeerImports {
  /** package.json's `peerDependenciesMeta[peer].optional`. */
  readonly optional: boolean | undefined;
  /** The entries' files, as package.json's `exports` name them. */
  readonly entries: readonly string[];
  /** The process's exit status and output; it prints `control: <error message>`. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Imports every entry with `packages` refused (a name, or anything below
 * it: `@crawlee` refuses `@crawlee/basic`), then `control`. A refused
 * import throws "`label` loaded: <specifier>".
 */
export async function importEntriesWithout(
  peer: string,
  label: string,
  packages: readonly string[],
  control: string,
): Promise<PeerImports> {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    exports: Record<string, { default: string }>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  const entries = Object.values(pkg.exports).map((e) => path.join(REPO_ROOT, e.default));
  const resolve = `export async function resolve(s, c, next) { for (const n of ${JSON.stringify(packages)}) if (s === n || s.startsWith(n + "/")) throw new Error(${JSON.stringify(`${label} loaded: `)} + s); return next(s, c); }`;
  const hook = `data:text/javascript,${encodeURIComponent(
    `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolve)}`)});`,
  )}`;
  const r = await run([
    process.execPath,
    "--import",
    hook,
    "--input-type=module",
    "-e",
    `for (const s of ${JSON.stringify(entries)}) await import(s);
try { await import(${JSON.stringify(control)}); console.log("control: loaded"); }
catch (e) { console.log("control: " + e.message); }`,
  ]);
  return {
    optional: pkg.peerDependenciesMeta[peer]?.optional,
    entries,
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}
