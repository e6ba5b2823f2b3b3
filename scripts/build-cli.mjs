/**
 * `npm run build:cli`: the JavaScript of src/ (but the tester page, src/web)
 * in dist/src, where `npm run build` writes it, with neither tsc's type
 * check nor declarations: esbuild transpiles each file on its own (the
 * CommonJS drop-in, .cts, to .cjs). What runs `robots` needs nothing more.
 * The GitHub Action builds its checkout with it (scripts/action.sh): the
 * code was type-checked where it was developed, and tsc reads every
 * dependency's types to check it again (a minute on a runner). tsconfig.json's
 * isolatedModules holds each file to what a one-file transpiler reads alike.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const src = path.join(root, "src");

/** The files under `dir` whose names end with `ext`, the tester page's folder left out. */
function sources(dir, ext) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .filter((f) => !f.startsWith(path.join(src, "web") + path.sep));
}

// The options tsc's output has that matter to running code: ES2022, ES
// modules (CommonJS for .cts), paths as tsconfig.json's rootDir and outDir
// lay them out.
const common = {
  outbase: root,
  outdir: path.join(root, "dist"),
  platform: "node",
  target: "es2022",
  tsconfig: path.join(root, "tsconfig.json"),
  bundle: false,
  logLevel: "warning",
};
await build({ ...common, entryPoints: sources(src, ".ts"), format: "esm" });
await build({
  ...common,
  entryPoints: sources(src, ".cts"),
  format: "cjs",
  outExtension: { ".js": ".cjs" },
});
