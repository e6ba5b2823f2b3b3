/**
 * The core of the package, in one place: the folders and files of src/ that
 * have no dependencies and no `node:` imports, so they run in browsers,
 * workers and edge runtimes as they do in Node. test/structure.test.ts holds
 * them to the folder layering and checks that the README names exactly this
 * list; test/core-isolation.test.ts checks their imports and RegExps.
 */
export const CORE: readonly string[] = [
  "parse",
  "match",
  "lint",
  "explain",
  "diff",
  "report",
  "page-rules",
  "usage",
  "data",
  "protocol",
  "errors.ts",
];

/** The core as the README states it: the `src/…` names in "The core (…)". */
export function coreInReadme(readme: string): string[] {
  const list = /The core \(([^)]*)\)/.exec(readme)?.[1] ?? "";
  return [...list.matchAll(/`src\/([^`]+)`/g)].map((m) => m[1]!);
}
