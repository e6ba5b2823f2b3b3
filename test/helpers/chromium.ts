/**
 * Debian's Chromium, driven by playwright-core, for the web page's tests and
 * bench (scripts/ensure-test-deps.sh installs it; no browser is downloaded).
 * Every request the browser makes is recorded, so tests can assert that
 * nothing left 127.0.0.1. Launch failures throw: a browser test never skips.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { BrowserContext, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { CLI, REPO_ROOT } from "./shared.js";

export const CHROMIUM = "/usr/bin/chromium";
/** The single file `npm run build:web` writes. */
export const PAGE_FILE = path.join(REPO_ROOT, "dist/web/robots-tester.html");

/**
 * Without the background-networking flags Chromium reaches out to Google
 * hosts on start; this machine refuses them and the tests would see them.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  readonly context: BrowserContext;
  /** Every URL the browser requested, in order. */
  readonly requests: string[];
  /**
   * A page showing `url`: a tab handed back by an earlier test when there is
   * one, else a new tab. A new tab costs Chromium a renderer process, more
   * than loading the tester page itself; a handed-back tab goes through
   * about:blank first, so `url` always loads as a new document, fragment or
   * not. The page has the `viewport` asked for, else the browser's own. For
   * pages whose set-up outlives a navigation (an init script, listeners),
   * use `context.newPage()` and close them.
   */
  page(url: string, viewport?: Viewport): Promise<Page>;
  /** Give a page from page() back for the next test, instead of closing it. */
  handBack(...pages: Page[]): void;
  close(): Promise<void>;
}

/** A page's size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

export async function launchBrowser(
  options: { colorScheme?: "light" | "dark"; width?: number; height?: number } = {},
): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), "robots-chromium-"));
  const size: Viewport = { width: options.width ?? 1280, height: options.height ?? 900 };
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      colorScheme: options.colorScheme ?? "light",
      viewport: size,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(
      `cannot start ${CHROMIUM} (run scripts/ensure-test-deps.sh): ${(err as Error).message}`,
    );
  }
  const requests: string[] = [];
  context.on("request", (r) => requests.push(r.url()));
  const idle: Page[] = [];
  return {
    context,
    requests,
    async page(url, viewport = size) {
      const reused = idle.pop();
      const page = reused ?? (await context.newPage());
      if (reused !== undefined) await page.goto("about:blank");
      const now = page.viewportSize();
      if (now?.width !== viewport.width || now.height !== viewport.height) {
        await page.setViewportSize(viewport);
      }
      await page.goto(url);
      return page;
    },
    handBack(...pages) {
      idle.push(...pages);
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Requests that went somewhere other than this machine's 127.0.0.1 (file:,
 * data:, about: and blob: stay local; the page starts its worker from a blob:
 * made of its own script).
 */
export function outsideRequests(requests: readonly string[]): string[] {
  const local = new Set(["file:", "data:", "about:", "blob:"]);
  return requests.filter((u) => {
    const url = new URL(u);
    if (local.has(url.protocol)) return false;
    return url.hostname !== "127.0.0.1";
  });
}

export interface Served {
  readonly url: string;
  stop(): Promise<void>;
}

/** Start `robots serve --port 0` (plus `extra` flags) and read its URL off the first line. */
export async function startServe(extra: readonly string[] = []): Promise<Served> {
  // Not subprocess.ts: the server must outlive this call and serve the browser until stop().
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string | null>((resolve) => {
    lines.once("line", resolve);
    lines.once("close", () => resolve(null));
  });
  if (first === null || !/^http:\/\/127\.0\.0\.1:\d+\/$/.test(first)) {
    child.kill();
    throw new Error(`robots serve did not print its URL: ${JSON.stringify(first)} ${stderr}`);
  }
  return {
    url: first,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) throw new Error(`robots serve exited with ${code}: ${stderr}`);
    },
  };
}

/** The few DOM members the helpers below use (the tests compile without the DOM library). */
interface PageGlobals {
  document: {
    querySelector(
      selector: string,
    ): { value: string; dispatchEvent(event: unknown): boolean } | null;
  };
  Event: new (type: string, init?: { bubbles?: boolean }) => unknown;
}

/**
 * Set inputs' values, then fire one `input` event (on the last), as a paste
 * does; the page reads every input on each event. Playwright's fill() types
 * through the editing machinery, which takes minutes on a 100 KB textarea;
 * small inputs in the tests use fill() itself.
 */
export async function setFields(
  page: Page,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  await page.evaluate((values) => {
    const g = globalThis as unknown as PageGlobals;
    let last: { dispatchEvent(event: unknown): boolean } | null = null;
    for (const [testid, value] of Object.entries(values)) {
      const field = g.document.querySelector(`[data-testid="${testid}"]`);
      if (field === null) throw new Error(`no [data-testid="${testid}"]`);
      field.value = value;
      last = field;
    }
    last?.dispatchEvent(new g.Event("input", { bubbles: true }));
  }, values);
}

/**
 * Wait until `expression` is true in the page. Polled through evaluate():
 * Playwright's waitForFunction compiles its argument inside the page, which
 * the page's Content-Security-Policy (no eval) rightly forbids.
 */
export async function waitFor(page: Page, expression: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
