/**
 * The API reports (docs/api.md "API reports"): one api-extractor report per
 * package entry, generated from the built `.d.ts` and committed in etc/, so
 * every change to the public surface shows in review.
 *
 * The entries are those of package.json's `exports`: an entry added there is
 * checked from then on, and `npm run api:update` writes its first report.
 * `checkApiReports()` (test/api-report.test.ts, part of `npm test`) builds
 * the reports into a temporary folder and compares; `--write` (what
 * `npm run api:update` runs) updates the committed files instead. Offline:
 * api-extractor reads only the .d.ts files and @types/node.
 *
 * Why api-extractor: its report is the format reviewers of TypeScript
 * libraries know, it follows re-exports to the declarations, and it marks
 * what has no doc comment as "(undocumented)".
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  type IConfigFile,
  type IExtractorMessagesConfig,
} from "@microsoft/api-extractor";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PACKAGE_JSON = path.join(ROOT, "package.json");
export const REPORT_FOLDER = path.join(ROOT, "etc");

export interface ApiEntry {
  /** The export's key: ".", "./node", … */
  readonly key: string;
  /** The report's base name: "robots-exclusion", "robots-exclusion-node", … */
  readonly report: string;
  /** The built declaration file of the entry. */
  readonly dts: string;
}

/** Every entry of package.json's `exports`, with its report name. */
export function apiEntries(): ApiEntry[] {
  const pkg = JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as {
    name: string;
    exports: Record<string, { types: string }>;
  };
  return Object.entries(pkg.exports).map(([key, target]) => ({
    key,
    report: key === "." ? pkg.name : `${pkg.name}-${key.slice(2).replaceAll("/", "-")}`,
    dts: path.join(ROOT, target.types),
  }));
}

/**
 * api-extractor cannot read `export =`, which the robots-parser drop-in's
 * CommonJS declarations use (robots-parser's shape). Such an entry is read
 * through a copy of its declarations (self-contained: it imports nothing)
 * with `export default` in place of `export =`: the same function and
 * namespace.
 */
function readableDts(entry: ApiEntry, tempFolder: string): ApiEntry {
  if (!entry.dts.endsWith(".d.cts")) return entry;
  const text = readFileSync(entry.dts, "utf8");
  const shim = path.join(tempFolder, `${entry.report}.d.ts`);
  writeFileSync(shim, text.replace(/^export = (\w+);$/m, "export default $1;"));
  return { ...entry, dts: shim };
}

/**
 * The report records the whole surface: a type a public signature uses but
 * the entry does not export (ae-forgotten-export) and a public name without a
 * doc comment (ae-undocumented) are errors. The TSDoc syntax of the comments
 * is not linted: they are prose written for editors' hovers.
 */
const MESSAGES: IExtractorMessagesConfig = {
  compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
  extractorMessageReporting: {
    default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
    "ae-forgotten-export": { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
    "ae-undocumented": { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
  },
  tsdocMessageReporting: {
    default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
  },
};

function configFor(entry: ApiEntry, entries: readonly ApiEntry[], tempFolder: string) {
  const configObject: IConfigFile = {
    projectFolder: ROOT,
    mainEntryPointFilePath: entry.dts,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["ES2022"],
          types: ["node"],
          strict: true,
          skipLibCheck: true,
        },
        files: entries.map((e) => e.dts),
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: REPORT_FOLDER,
      reportTempFolder: tempFolder,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: "lf",
    messages: MESSAGES,
  };
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: PACKAGE_JSON,
  });
}

/** The declaration a message is about: its source file (the .d.ts's twin in src/) and the .d.ts line. */
function where(message: ExtractorMessage): string {
  if (message.sourceFilePath === undefined) return "";
  const file = path
    .relative(path.join(ROOT, "dist"), message.sourceFilePath)
    .replace(/\.d\.(c?)ts$/, ".$1ts");
  return `${file} (.d.ts line ${message.sourceFileLine ?? 0}): `;
}

export interface ApiCheck {
  /** Entries whose committed report differs from the build (or is missing). */
  readonly changed: string[];
  /** Reports in etc/ for entries package.json no longer exports. */
  readonly orphaned: string[];
  /** api-extractor's own errors (a .d.ts it could not analyse). */
  readonly errors: string[];
}

/**
 * Build every entry's report; with `write`, update etc/ (the local-build
 * mode), else compare with etc/ and leave it untouched.
 */
export function checkApiReports(write = false): ApiCheck {
  const tempFolder = mkdtempSync(path.join(tmpdir(), "api-report-"));
  const entries = apiEntries().map((e) => readableDts(e, tempFolder));
  const changed: string[] = [];
  const errors: string[] = [];
  mkdirSync(REPORT_FOLDER, { recursive: true });
  try {
    let compilerState: CompilerState | undefined;
    for (const entry of entries) {
      const config = configFor(entry, entries, tempFolder);
      compilerState ??= CompilerState.create(config, {
        additionalEntryPoints: entries.map((e) => e.dts),
      });
      const result = Extractor.invoke(config, {
        localBuild: write,
        compilerState,
        messageCallback: (message) => {
          if (message.logLevel === "error")
            errors.push(`${entry.key}: ${where(message)}${message.text}`);
          message.handled = true;
        },
      });
      if (result.errorCount > 0 && errors.length === 0) errors.push(`${entry.key}: failed`);
      if (!write && result.apiReportChanged) changed.push(`etc/${entry.report}.api.md`);
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  const expected = new Set(entries.map((e) => `${e.report}.api.md`));
  const orphaned = readdirSync(REPORT_FOLDER)
    .filter((f) => f.endsWith(".api.md") && !expected.has(f))
    .map((f) => `etc/${f}`);
  if (write) for (const f of orphaned) rmSync(path.join(ROOT, f));
  return { changed, orphaned: write ? [] : orphaned, errors };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes("--write");
  const r = checkApiReports(write);
  for (const e of r.errors) console.error(e);
  if (write) {
    console.log(`API reports written to ${path.relative(ROOT, REPORT_FOLDER)}/`);
  } else {
    for (const f of [...r.changed, ...r.orphaned]) console.error(`${f} differs from the build`);
  }
  process.exitCode = r.errors.length > 0 || r.changed.length + r.orphaned.length > 0 ? 1 : 0;
}
