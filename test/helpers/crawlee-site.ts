/**
 * Crawlee set-up for the crawlee integration tests (their loopback sites are
 * test/helpers/loopback-site.ts): crawlers get an in-memory storage and a
 * silent log, so nothing is written into the repository.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Configuration, EventManager, Log, LogLevel } from "@crawlee/basic";

/**
 * crawlee's events without its machine sampling: the default manager reads
 * the CPU and, through a `ps` subprocess, the memory of the whole process
 * tree at each run's start and every second after, only to scale a
 * crawler's concurrency to the machine's load. The tests set the
 * concurrency they mean; the sampling cost a subprocess per running
 * crawler per second and made the concurrency depend on the machine's load.
 */
class UnsampledEvents extends EventManager {}

/**
 * What every crawler in these tests is given: its own in-memory storage
 * (nothing persisted; its directory, should crawlee want one, is a temp
 * one removed by dispose()), events without machine sampling and a log
 * that prints nothing.
 */
export function quietCrawlee(): { config: Configuration; log: Log; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "robots-crawlee-"));
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { persistStorage: false, writeMetadata: false, localDataDirectory: dir },
    // A memory budget of its own, so the autoscaler does not measure the machine's.
    memoryMbytes: 4096,
  });
  config.useEventManager(new UnsampledEvents(config));
  return {
    config,
    log: new Log({ level: LogLevel.OFF }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
