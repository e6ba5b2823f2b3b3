#!/usr/bin/env node
// The `robots` command. The TypeScript sources are built into dist/ by
// `npm ci` (the "prepare" script) or `npm run build`.
import { runCli } from "../dist/src/cli/main.js";

process.stdout.on("error", (err) => {
  // A closed pipe (`robots … | head`) is not an error worth a stack trace.
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});
await runCli(process.argv.slice(2));
