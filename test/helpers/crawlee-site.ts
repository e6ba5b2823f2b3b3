/**
 * Crawlee set-up for the crawlee integration tests (their loopback sites are
 * test/helpers/loopback-site.ts): crawlers get an in-memory storage and a
 * silent log, so nothing is written into the repository.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Configuration, Log, LogLevel } from "@crawlee/basic";

/**
 * What every crawler in these tests is given: its own in-memory storage
 * (nothing persisted; its directory, should crawlee want one, is a temp
 * one removed by dispose()) and a log that prints nothing.
 */
export function quietCrawlee(): { config: Configuration; log: Log; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "robots-crawlee-"));
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { persistStorage: false, writeMetadata: false, localDataDirectory: dir },
  });
  return {
    config,
    log: new Log({ level: LogLevel.OFF }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
