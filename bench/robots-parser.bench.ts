/**
 * `npm run bench -- robots-parser`: robots-exclusion/robots-parser against
 * robots-parser@3 on the corpus checks, the same call on the same strings
 * in the same run (measureDropin, also a row of the core bench), and how
 * often each gives the reference's verdict. Timings are printed, never
 * asserted (docs/benchmarks.md, docs/integrations.md).
 */
import { measureDropin, PEER_VERSION } from "./core/measures.js";
import { findShared, loadWorkload } from "./core/workloads.js";
import { fmtRate, REPS } from "./harness.js";

export async function run(): Promise<void> {
  const shared = findShared();
  if (shared === null) {
    console.log("robots-parser: skipped (../shared/corpus not found; set ROBOTS_SHARED)");
    return;
  }
  const { files, checks } = loadWorkload(shared);
  console.log(
    `\n## robots-parser: robots-exclusion/robots-parser vs robots-parser@${PEER_VERSION}, ` +
      `${checks.length} corpus checks on ${files.length} files`,
  );
  const d = measureDropin(files, checks);
  const pct = (k: number): string => `${((100 * k) / checks.length).toFixed(3)}%`;
  console.log(
    `isAllowed(url, agent), median of ${REPS} interleaved runs: drop-in ${fmtRate(d.dropin)}/s, ` +
      `robots-parser ${fmtRate(d.peer)}/s, ratio ${(d.dropin / d.peer).toFixed(1)}× ` +
      `(per run ${d.spread})`,
  );
  console.log(
    `verdicts equal to Google's reference: drop-in ${pct(d.dropinAgree)}, robots-parser ${pct(d.peerAgree)} ` +
      "(the drop-in decides the path an HTTP client sends; the reference was given the raw URL)",
  );
}
