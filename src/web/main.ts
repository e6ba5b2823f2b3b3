/**
 * The tester page's one script (docs/web.md). In the page it starts the
 * page (src/web/tester.ts), which starts a worker from this same script's
 * text; in that worker it answers with lint, the report, the comparison and
 * the link (src/web/worker.ts). One script for both keeps the page a single
 * file that works from file://, with the core bundled once. The page module
 * is imported only in the page (esbuild bundles the import in place and
 * runs the module when it is reached), since it touches the document as it
 * loads.
 */
import { serveWorker } from "./worker.js";

if (typeof document === "undefined") {
  serveWorker();
} else {
  // Only readable while this script first runs.
  const source = document.currentScript?.textContent ?? "";
  void import("./tester.js").then((tester) => tester.startTester(source));
}
