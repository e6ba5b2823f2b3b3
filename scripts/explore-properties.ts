/**
 * `npm run test:explore`: the fast-check properties of test/ run again and
 * again, each round with a new random seed and ten times the runs
 * (test/helpers/fc-seed.ts reads both from the environment). Stops at the
 * first failing round and prints how to replay it. ROBOTS_FC_ROUNDS sets the
 * rounds (default 10), ROBOTS_FC_RUNS_FACTOR the runs multiplier (default
 * 10); file names given as arguments narrow the files run.
 */
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const testDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test");

function positive(name: string, fallback: number): number {
  const text = process.env[name];
  const n = text === undefined ? fallback : Number(text);
  if (!(Number.isFinite(n) && n > 0)) {
    console.error(`${name} must be a positive number, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return n;
}

const rounds = Math.floor(positive("ROBOTS_FC_ROUNDS", 10));
const factor = positive("ROBOTS_FC_RUNS_FACTOR", 10);
const wanted = process.argv.slice(2);
const files = readdirSync(testDir)
  .filter((f) => f.endsWith(".test.js"))
  .filter((f) => readFileSync(path.join(testDir, f), "utf8").includes("fc-seed.js"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .map((f) => path.join(testDir, f));
if (files.length === 0) {
  console.error("no property test file matches; build first (npm run test:explore does)");
  process.exit(2);
}

for (let round = 1; round <= rounds; round++) {
  const seed = randomInt(-(2 ** 31), 2 ** 31);
  console.log(`round ${round}/${rounds}: seed ${seed}, runs x${factor}, ${files.length} files`);
  const r = spawnSync(process.execPath, ["--test", ...files], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    env: {
      ...process.env,
      ROBOTS_FC_SEED: String(seed),
      ROBOTS_FC_RUNS_FACTOR: String(factor),
    },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stdout.write(r.stdout);
    console.log(
      `\nround ${round} failed. Replay: ROBOTS_FC_SEED=${seed} ROBOTS_FC_RUNS_FACTOR=${factor} node --test dist/test/<file>.test.js; keep the counterexample as a plain regression test.`,
    );
    process.exit(1);
  }
}
console.log(`${rounds} rounds clean`);
