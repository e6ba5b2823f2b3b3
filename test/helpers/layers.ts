/**
 * The layers of src/, lowest first: a folder (or top-level file) imports
 * only from its own layer or the layers below it, never up, and files
 * import each other in no circle (test/structure.test.ts). CONTRIBUTING.md
 * states the same order. A new folder takes its place here.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // The one error type.
  ["errors.ts"],
  // Protocol facts, each defined once, and the crawler catalogue.
  ["protocol", "data"],
  // Bytes → a parsed file.
  ["parse"],
  // Matching a parsed file; page rules; the cache's stored forms; one fetch.
  ["match", "page-rules", "cache", "fetch"],
  // What is read from a parsed file: verdict diffs, explanations, usage preferences.
  ["diff", "explain", "usage"],
  // Reports over those: the linter, the crawler report, the log audit's accounting.
  ["lint", "report", "audit"],
  // The access-method client: fetch, cache, politeness.
  ["client"],
  // Around the client: the Redis store, page fetches, crawlee, Playwright, the log audit's files and DNS.
  ["redis", "page-rules-io", "crawlee", "playwright", "audit-io"],
  // The package's entries and the tester page.
  ["entries", "web"],
  // The command line.
  ["cli"],
];

/** The layer of a folder or top-level file of src/; -1 when it has none. */
export function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}
