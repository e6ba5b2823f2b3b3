import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { systemWarmClock, WarmClock } from "../src/client/warm-clock.js";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import {
  loopbackLookup,
  serveText,
  startServer,
  type TestServer,
} from "./helpers/fetch-servers.js";

let site: TestServer;
before(async () => {
  site = await startServer(serveText("User-agent: *\nDisallow: /private\n"));
});
after(() => site.close());

describe('the warm path\'s clock (docs/fetching.md "Speed")', () => {
  it("reads its clock once per window and again after the window ends", () => {
    let t = 1000;
    let reads = 0;
    const ends: (() => void)[] = [];
    const clock = new WarmClock(
      () => {
        reads++;
        return t;
      },
      (end) => ends.push(end),
    );
    assert.equal(clock.now(), 1000);
    t = 1007;
    assert.equal(clock.now(), 1000, "inside the window: the reading that opened it");
    assert.equal(reads, 1);
    assert.equal(ends.length, 1, "one window, one timer");
    ends.shift()!();
    assert.equal(clock.now(), 1007, "a new window reads the clock again");
    assert.equal(reads, 2);
    assert.equal(ends.length, 1);
  });

  it("on the system clock, a window ends by itself and is never ahead of the clock", async () => {
    const clock = systemWarmClock();
    const first = clock.now();
    assert.ok(first <= Date.now());
    await new Promise((resolve) => setTimeout(resolve, 40));
    const later = clock.now();
    assert.ok(later > first, `a reading after the window: ${later} > ${first}`);
    assert.ok(later <= Date.now());
  });

  it("an injected clock is read on every warm check", async () => {
    let reads = 0;
    const client = new RobotsClient("ClockBot/1.0", {
      transport: createNodeTransport({ lookup: loopbackLookup }),
      now: () => {
        reads++;
        return 1_000_000;
      },
    });
    // A name, not 127.0.0.1: only URLs in canonical form with a name take the warm path.
    const origin = `http://clock.test:${site.port}`;
    await client.isAllowed(`${origin}/`);
    const before = reads;
    assert.equal(await client.isAllowed(`${origin}/a`), true);
    assert.equal(await client.isAllowed(`${origin}/private/b`), false);
    assert.equal(reads - before, 2, "one read a warm check");
    await client.close();
  });
});
