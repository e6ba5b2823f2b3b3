/**
 * `npm run build:web`: bundles src/web/main.ts with esbuild and inlines it
 * and src/web/style.css into src/web/index.html, writing one self-contained
 * file, dist/web/robots-tester.html, that `robots serve` serves and that
 * also works opened from file:// (no other file, no network).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.join(root, "src/web");
const out = path.join(root, "dist/web/robots-tester.html");

const result = await build({
  entryPoints: [path.join(web, "main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  platform: "browser",
  legalComments: "none",
  write: false,
  logLevel: "warning",
});
const script = result.outputFiles[0].text;
const style = readFileSync(path.join(web, "style.css"), "utf8");
// Inline <script> and <style> end at the first "</script" / "</style".
if (/<\/script|<!--/i.test(script)) throw new Error("the bundle contains </script or <!--");
if (/<\/style/i.test(style)) throw new Error("style.css contains </style");
const template = readFileSync(path.join(web, "index.html"), "utf8");
for (const mark of ["/*STYLE*/", "/*SCRIPT*/"]) {
  if (!template.includes(mark)) throw new Error(`index.html lacks ${mark}`);
}
// Functions, not strings, as replacements: "$&" in the bundle stays as is.
const html = template.replace("/*STYLE*/", () => style).replace("/*SCRIPT*/", () => script);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, html);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `wrote ${path.relative(root, out)}: ${kb(html.length)}; script ${kb(script.length)}, ${kb(gzipSync(script).length)} gzipped`,
);
