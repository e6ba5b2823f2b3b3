/**
 * The one seed of every fast-check property in test/ (README "Tests"):
 * derived from the commit under test, so a re-run of the same commit
 * repeats every run, and printed in the test output. `ROBOTS_FC_SEED`
 * replays a seed; `ROBOTS_FC_RUNS_FACTOR` multiplies the runs (`npm run
 * test:explore` sets both, with a new random seed per round). A failure's
 * message is fast-check's: it holds the seed and the path of the
 * counterexample, `{ seed: …, path: "…", endOnFailure: true }`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import type { Parameters } from "fast-check";

/** Where the seed came from, for the printed line. */
function derive(): { seed: number; from: string } {
  const given = process.env.ROBOTS_FC_SEED;
  if (given !== undefined && given.trim() !== "") {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`ROBOTS_FC_SEED must be an integer, got ${JSON.stringify(given)}`);
    }
    return { seed: seed | 0, from: "ROBOTS_FC_SEED" };
  }
  let commit = "";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // No git (an unpacked tarball): a CI's commit variable, else a fixed seed.
  }
  const from =
    commit !== ""
      ? `commit ${commit.slice(0, 12)}`
      : process.env.GITHUB_SHA
        ? `GITHUB_SHA ${process.env.GITHUB_SHA.slice(0, 12)}`
        : "no commit known: fixed";
  const text = commit || process.env.GITHUB_SHA || "robots-exclusion";
  const seed = createHash("sha256").update(text).digest().readInt32LE(0);
  return { seed, from };
}

const { seed: SEED, from: FROM } = derive();
const factorText = process.env.ROBOTS_FC_RUNS_FACTOR ?? "1";
const FACTOR = Number(factorText);
if (!(Number.isFinite(FACTOR) && FACTOR > 0)) {
  throw new Error(
    `ROBOTS_FC_RUNS_FACTOR must be a positive number, got ${JSON.stringify(factorText)}`,
  );
}

// One line per test file, in the runner's output: what to set to replay.
console.log(
  `fast-check seed ${SEED} (${FROM}); replay with ROBOTS_FC_SEED=${SEED}${FACTOR === 1 ? "" : ` ROBOTS_FC_RUNS_FACTOR=${factorText}`}`,
);

/** The seed every property of this process runs with. */
export const PROPERTY_SEED: number = SEED;

/** fast-check parameters for a property of `numRuns` runs: the shared seed, runs scaled by ROBOTS_FC_RUNS_FACTOR. */
export function propertyRuns<T>(numRuns: number): Parameters<T> {
  return { seed: SEED, numRuns: Math.max(1, Math.ceil(numRuns * FACTOR)) };
}
