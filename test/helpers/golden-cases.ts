/**
 * The golden-output cases: every command's output, byte for byte, for fixed
 * inputs under test/fixtures/cli/. test/golden.test.ts compares; the explicit
 * `npm run golden:update` (test/helpers/update-golden.ts) rewrites test/golden/.
 * The CLI runs in-process from the repository root, so labels in the
 * output are the relative fixture paths, and not on a terminal, so
 * there is never colour or a progress line.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { robots } from "./in-process.js";
import { REPO_ROOT } from "./shared.js";
import { type Run, robotsSync } from "./subprocess.js";

export const GOLDEN_DIR = path.join(REPO_ROOT, "test/golden");
const F = "test/fixtures/cli";

export interface GoldenCase {
  /** File name under test/golden/, without `.txt`. */
  readonly name: string;
  readonly args: readonly string[];
  /** Standard input: a fixture path, or generated text (described in the golden header). */
  readonly stdin?:
    | { readonly file: string }
    | { readonly text: () => string; readonly about: string };
  /** The command this case exercises; its cases fail, never skip, when it cannot run. */
  readonly needs?: string;
  /** Environment variables set for the run (shown in the golden header). */
  readonly env?: Readonly<Record<string, string>>;
}

/** A robots.txt over 500 KiB whose decisive rule lies past the limit. */
function oversizeRobots(): string {
  return `User-agent: *\nDisallow: /early\n${"# padding padding padding padding\n".repeat(16000)}Disallow: /late\n`;
}

export const GOLDEN_CASES: readonly GoldenCase[] = [
  // Conventions
  { name: "main-help", args: ["--help"] },
  { name: "main-no-command", args: [] },
  { name: "main-unknown-command", args: ["frobnicate"] },
  { name: "main-unknown-option", args: ["agents", `${F}/agents.txt`, "--bogus"] },
  { name: "main-missing-option-value", args: ["explain", `${F}/explain.txt`, "--agent"] },
  { name: "main-unknown-profile", args: ["agents", `${F}/agents.txt`, "--profile", "strict"] },
  ...["check", "explain", "diff", "agents", "batch", "lint", "fetch", "test"].map((cmd) => ({
    name: `${cmd}-help`,
    args: [cmd, "--help"],
    needs: cmd,
  })),

  // explain
  {
    name: "explain-googlebot",
    args: [
      "explain",
      `${F}/explain.txt`,
      "--agent",
      "Googlebot",
      "https://example.com/private/x",
      "/shop/",
      "/drafts/a",
      "/search?q=1",
      "/Private",
    ],
  },
  {
    name: "explain-cut-token",
    args: ["explain", `${F}/explain.txt`, "--agent", "GPTBot", "/private/open/x", "/a.pdf"],
  },
  {
    name: "explain-missing-colon",
    args: ["explain", `${F}/explain.txt`, "--agent", "Bingbot", "/tmp/x"],
  },
  {
    name: "explain-json",
    args: [
      "explain",
      `${F}/explain.txt`,
      "--agent",
      "Googlebot",
      "/drafts/a",
      "/search",
      "--format",
      "json",
    ],
  },
  {
    name: "explain-stdin-unencoded-url",
    args: ["explain", "-", "--agent", "FooBot", "/ツ", "/%E3%83%84"],
    stdin: { text: () => "User-agent: *\nDisallow: /ツ\n", about: "User-agent: * / Disallow: /ツ" },
  },
  {
    name: "explain-size-limit",
    args: ["explain", "-", "--agent", "FooBot", "/late/page", "/early"],
    stdin: { text: oversizeRobots, about: "a 544 KB file whose last rule lies past 500 KiB" },
  },
  {
    name: "explain-no-group",
    args: ["explain", `${F}/agents.txt`, "--agent", "GPTBot", "/", "--profile", "legacy1996"],
  },
  {
    name: "explain-outside-group",
    args: ["explain", "-", "--agent", "FooBot", "/private"],
    stdin: {
      text: () => "Disallow: /private\nUser-agent: FooBot\nAllow: /public\n",
      about: "a rule before any User-agent line",
    },
  },
  { name: "explain-error-no-agent", args: ["explain", `${F}/explain.txt`, "/x"] },
  {
    name: "explain-agent-read-as-token",
    args: ["explain", `${F}/explain.txt`, "--agent", "Googlebot/2.1", "/x"],
  },
  { name: "explain-error-missing-file", args: ["explain", `${F}/nope.txt`, "--agent", "X", "/"] },
  { name: "explain-error-directory", args: ["explain", F, "--agent", "X", "/"] },
  { name: "explain-error-empty-url", args: ["explain", `${F}/explain.txt`, "--agent", "X", ""] },
  {
    name: "explain-error-format",
    args: ["explain", `${F}/explain.txt`, "--agent", "X", "/", "--format", "xml"],
  },

  // diff
  { name: "diff-probes", args: ["diff", `${F}/diff-old.txt`, `${F}/diff-new.txt`] },
  { name: "diff-unchanged", args: ["diff", `${F}/diff-old.txt`, `${F}/diff-old.txt`] },
  {
    name: "diff-urls-agents",
    args: [
      "diff",
      `${F}/diff-old.txt`,
      `${F}/diff-new.txt`,
      "--urls",
      `${F}/urls.txt`,
      "--agent",
      "Googlebot,CCBot,FooBot",
    ],
  },
  {
    name: "diff-json",
    args: [
      "diff",
      `${F}/diff-old.txt`,
      `${F}/diff-new.txt`,
      "--agent",
      "GPTBot",
      "--format",
      "json",
    ],
  },
  {
    name: "diff-stdin",
    args: ["diff", "-", `${F}/diff-new.txt`, "--agent", "Googlebot"],
    stdin: { file: `${F}/diff-old.txt` },
  },
  { name: "diff-error-two-stdin", args: ["diff", "-", "-"] },
  { name: "diff-error-args", args: ["diff", `${F}/diff-old.txt`] },

  // agents
  { name: "agents-report", args: ["agents", `${F}/agents.txt`] },
  { name: "agents-ai", args: ["agents", `${F}/agents.txt`, "--category", "ai"] },
  {
    name: "agents-json",
    args: ["agents", `${F}/agents.txt`, "--format", "json", "--category", "ai-search,seo"],
  },
  {
    name: "agents-empty-stdin",
    args: ["agents", "-", "--purpose", "search"],
    stdin: { text: () => "", about: "an empty file" },
  },
  { name: "agents-error-category", args: ["agents", `${F}/agents.txt`, "--category", "robots"] },
  { name: "agents-block", args: ["agents", "--block", "ai-training", `${F}/agents.txt`] },
  { name: "agents-block-unchecked", args: ["agents", "--block", "ai-user-triggered,archive"] },
  {
    name: "agents-block-allow-survives",
    args: ["agents", "--block", "ai-training", `${F}/agents-allow.txt`],
  },

  // check (file form and bulk form)
  {
    name: "check-disallowed",
    args: ["check", `${F}/explain.txt`, "Googlebot", "https://example.com/private/x"],
  },
  {
    name: "check-allowed-json",
    args: ["check", `${F}/explain.txt`, "GPTBot", "/private/open/x", "--format", "json"],
  },
  {
    name: "check-bulk-text",
    args: ["check", "--robots", `${F}/explain.txt`, "--agent", "GPTBot"],
    stdin: { file: `${F}/urls.txt` },
  },
  {
    name: "check-bulk-tsv",
    args: ["check", "--robots", `${F}/explain.txt`, "--agent", "Googlebot", "--format", "tsv"],
    stdin: { file: `${F}/urls.txt` },
  },
  {
    name: "check-bulk-json",
    args: ["check", "--robots", `${F}/explain.txt`, "--agent", "Googlebot", "--format", "json"],
    stdin: { file: `${F}/urls.txt` },
  },
  { name: "check-error-bulk-stdin", args: ["check", "--robots", "-", "--agent", "X"] },
  {
    name: "check-error-format",
    args: ["check", "--robots", `${F}/explain.txt`, "--agent", "X", "--format", "xml"],
  },

  // lint and fetch (owned elsewhere; their own tests go deeper)
  { name: "lint-text", args: ["lint", `${F}/explain.txt`], needs: "lint" },
  { name: "lint-json", args: ["lint", `${F}/explain.txt`, "--format", "json"], needs: "lint" },
  { name: "lint-stdin", args: ["lint", "-"], stdin: { file: `${F}/agents.txt` }, needs: "lint" },
  { name: "lint-error-missing-file", args: ["lint", `${F}/nope.txt`], needs: "lint" },
  {
    name: "lint-fix-dry-run",
    args: ["lint", "--fix-dry-run", `${F}/explain.txt`],
    needs: "lint",
  },
  { name: "fetch-error-scheme", args: ["fetch", "ftp://example.com/"], needs: "fetch" },
  { name: "fetch-error-url", args: ["fetch", "http://[bad"], needs: "fetch" },
  { name: "check-error-url", args: ["check", "http://[bad", "--agent", "X"] },

  // batch
  { name: "batch-protocol", args: ["batch"], stdin: { file: `${F}/batch.jsonl` } },
  {
    name: "batch-error-malformed",
    args: ["batch"],
    stdin: {
      text: () => '{"robots":"x","checks":[]}\n{not json\n',
      about: "a malformed second line",
    },
  },
  { name: "batch-error-format", args: ["batch", "--format", "text"] },

  // test: the deploy gate
  { name: "test-pass", args: ["test", `${F}/gate-robots.txt`, `${F}/gate.expect`] },
  { name: "test-fail", args: ["test", `${F}/gate-robots.txt`, `${F}/gate-fail.expect`] },
  {
    name: "test-fail-github",
    args: ["test", `${F}/gate-robots.txt`, `${F}/gate-fail.expect`],
    env: { GITHUB_ACTIONS: "true" },
  },
  {
    name: "test-fail-junit",
    args: ["test", `${F}/gate-robots.txt`, `${F}/gate-fail.expect`, "--format", "junit"],
  },
  {
    name: "test-pass-json",
    args: ["test", `${F}/gate-robots.txt`, `${F}/gate.expect`, "--format", "json"],
  },
  {
    name: "test-stdin-github",
    args: ["test", `${F}/gate-robots.txt`, "-", "--format", "github"],
    stdin: { file: `${F}/gate-fail.expect` },
  },
  { name: "test-malformed", args: ["test", `${F}/gate-robots.txt`, `${F}/gate-malformed.expect`] },
  {
    name: "test-malformed-github",
    args: ["test", `${F}/gate-robots.txt`, `${F}/gate-malformed.expect`, "--format", "github"],
  },
  {
    name: "test-record",
    args: ["test", `${F}/gate-robots.txt`, "--record", `${F}/gate-urls.txt`],
  },
  {
    name: "test-record-agents",
    args: ["test", `${F}/gate-robots.txt`, "--record", "-", "--agent", "Googlebot,*"],
    stdin: { file: `${F}/gate-urls.txt` },
  },
  {
    name: "test-size-limit",
    args: ["test", "-", `${F}/gate.expect`],
    stdin: { text: oversizeRobots, about: "a 544 KB file whose last rule lies past 500 KiB" },
  },
  {
    name: "test-error-empty",
    args: ["test", `${F}/gate-robots.txt`, "-"],
    stdin: { text: () => "# nothing yet\n", about: "an expectations file of comments only" },
  },
  { name: "test-error-args", args: ["test", `${F}/gate-robots.txt`] },
  {
    name: "test-error-format",
    args: ["test", `${F}/gate-robots.txt`, `${F}/gate.expect`, "--format", "tsv"],
  },
  {
    name: "test-error-record-url",
    args: ["test", `${F}/gate-robots.txt`, "--record", `${F}/urls.txt`],
  },
  {
    name: "diff-github",
    args: ["diff", `${F}/diff-old.txt`, `${F}/diff-new.txt`, "--format", "github"],
  },
];

/**
 * Does the CLI know `command`? (Commands owned by others may not exist
 * yet.) Synchronous: it decides a test's `skip`.
 */
export function hasCommand(command: string): boolean {
  return robotsSync([command, "--help"]).code === 0;
}

export function runGoldenCase(c: GoldenCase): Promise<Run> {
  let stdin: string | Buffer = "";
  if (c.stdin !== undefined) {
    stdin = "file" in c.stdin ? readFileSync(path.join(REPO_ROOT, c.stdin.file)) : c.stdin.text();
  }
  // Output must not depend on the caller's terminal settings, nor on
  // running inside GitHub Actions (which changes robots test's format).
  const env = {
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    ROBOTS_DEBUG: undefined,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    GITHUB_OUTPUT: undefined,
    ...c.env,
  };
  return robots(c.args, { stdin, env });
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_./:,=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** The golden file's text: the command, then exit status, stdout and stderr. */
export function renderGolden(c: GoldenCase, r: Run): string {
  const env = Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`);
  let head = ["$", ...env, "robots", ...c.args.map(quote)].join(" ");
  if (c.stdin !== undefined) {
    head += "file" in c.stdin ? ` < ${c.stdin.file}` : `  # stdin: ${c.stdin.about}`;
  }
  return `${head}\n--- exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

export function goldenPath(c: GoldenCase): string {
  return path.join(GOLDEN_DIR, `${c.name}.txt`);
}

export function goldenExists(c: GoldenCase): boolean {
  return existsSync(goldenPath(c));
}
