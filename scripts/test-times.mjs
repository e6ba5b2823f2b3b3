/**
 * A `node --test` reporter that records how long each test file ran, for
 * scripts/test-order.mjs to start the longest first next time. It yields one
 * JSON object at the end: file path (relative to the repository) → seconds.
 */
import path from "node:path";

export default async function* testTimes(source) {
  const seconds = {};
  for await (const event of source) {
    const { data } = event;
    // Each file is reported as a test named by its path, around its own tests.
    if (event.type !== "test:complete" || data.file === undefined || data.name !== data.file)
      continue;
    const rel = path.relative(process.cwd(), data.file);
    seconds[rel] = Math.round(data.details.duration_ms) / 1000;
  }
  yield `${JSON.stringify(seconds, null, 1)}\n`;
}
