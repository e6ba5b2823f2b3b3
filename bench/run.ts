/**
 * `npm run bench`: every benchmark section, each comparing against the
 * libraries users would otherwise pick, measured in the same run. Sections
 * live in bench/<name>.bench.ts and export `run(): Promise<void>`.
 * Timings are printed, never asserted (STYLE.md).
 */
const SECTIONS = ["./core.bench.js", "./fetch-load.bench.js"];

const only = process.argv.slice(2);
for (const section of SECTIONS) {
  if (only.length > 0 && !only.some((o) => section.includes(o))) continue;
  let mod: { run?: () => Promise<void> };
  try {
    mod = (await import(section)) as { run?: () => Promise<void> };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      console.log(`(section ${section} not present in this build)`);
      continue;
    }
    throw err;
  }
  await mod.run?.();
}
