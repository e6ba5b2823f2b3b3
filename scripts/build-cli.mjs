/**
 * `npm run build:cli`: the CLI as bin/robots.js runs it, bundled by esbuild
 * from src/cli/main.ts into dist/src/cli-bundle/: a module for what every
 * run loads, one per command (a run still loads only the command it runs,
 * src/cli/commands/index.ts), chunks they share, without comments or
 * whitespace. Node's loader then reads a dozen files at start instead of
 * some eighty, each resolved, read and compiled on its own: a `robots`
 * run starts on about a sixth less CPU (docs/performance-decisions.md).
 * The package's dependencies stay imports, found in node_modules as before.
 *
 * The folder is as deep as dist/src/cli, so what the CLI reads beside
 * itself (package.json, dist/web) is where its modules find it. Neither a
 * type check nor declarations: the code is type-checked where it is
 * developed (tsc, whose isolatedModules keeps every file one that esbuild
 * reads alike), and the GitHub Action builds its checkout with this alone
 * (scripts/action.sh), in a second or so.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist/src/cli-bundle");

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, "src/cli/main.ts")],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  // Names stay readable in a stack trace (ROBOTS_DEBUG=1).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
});
