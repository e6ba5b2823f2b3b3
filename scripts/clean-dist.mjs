/**
 * Removes the compiled output before a full build (`npm test`), so that a
 * source file that was moved or deleted leaves no stale module in dist/
 * for a test, or the tarball, to find.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
for (const dir of ["dist/src", "dist/test", "dist/bench", "dist/examples", "dist/scripts"]) {
  rmSync(path.join(root, dir), { recursive: true, force: true });
}
