/**
 * `npm run bench -- usage`: the AI usage preferences of one URL
 * (src/usage), for a crawler that asks per URL of one robots.txt. Compared
 * in the same run: compileUsage once then preferences(url) per URL, the
 * one-shot usagePreferences per URL (which compiles every time), and, for
 * scale, the allow/disallow check of the same URLs (compileMatcher once).
 * The file: 40 Content-Usage rules with wildcards, 30 allow/disallow
 * rules, a Content-Signal line. Rates are printed as ranges over
 * interleaved runs (the machine is shared); nothing is asserted.
 */
import { compileMatcher } from "../src/match/compile.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { compileUsage, usagePreferences } from "../src/usage/usage-preferences.js";
import { fmtRate, rateRuns, ratioRange } from "./harness.js";

function body(): string {
  const lines = ["User-agent: *", "Content-Signal: search=yes, ai-train=no"];
  for (let i = 0; i < 30; i++) lines.push(`${i % 3 ? "Disallow" : "Allow"}: /d${i}/*.php$`);
  lines.push("Content-Usage: train-ai=n");
  for (let i = 0; i < 40; i++)
    lines.push(`Content-Usage: /s${i}/*/p${i % 7} train-ai=${i % 2 ? "y" : "n"}, search=y`);
  return lines.join("\n");
}

const URLS = Array.from(
  { length: 1000 },
  (_, i) => `https://example.com/s${i % 50}/x/p${i % 9}/page-${i}.html?q=${i}`,
);

export async function run(): Promise<void> {
  const robots = parseRobotsTxt(body());
  const compiled = compileUsage(robots, "ExampleBot");
  const matcher = compileMatcher(robots, "ExampleBot");
  let sink = 0;
  const passes = [
    () => {
      for (const u of URLS) sink += compiled.preferences(u).statements.length;
    },
    () => {
      for (const u of URLS)
        sink += usagePreferences({ robots, agent: "ExampleBot", url: u }).statements.length;
    },
    () => {
      for (const u of URLS) sink += matcher.isAllowed(u) ? 1 : 0;
    },
  ];
  const [reused, oneShot, access] = rateRuns(URLS.length, passes) as [number[], number[], number[]];
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log("\nusage preferences per URL (40 Content-Usage rules, 1,000 URLs)");
  console.log(`  compileUsage once, preferences(url):  ${fmtRate(med(reused))} URLs/s`);
  console.log(`  usagePreferences per URL (one-shot):  ${fmtRate(med(oneShot))} URLs/s`);
  console.log(`  isAllowed per URL (for scale):        ${fmtRate(med(access))} URLs/s`);
  console.log(
    `  compiled / one-shot: ${ratioRange(reused, oneShot)}; isAllowed / compiled: ${ratioRange(access, reused)}`,
  );
  if (sink < 0) console.log(sink);
}
