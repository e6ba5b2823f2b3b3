/**
 * `robots mcp`: a Model Context Protocol server on stdio (docs/cli.md), so
 * an assistant or agent framework can ask before it fetches. Built on the
 * official TypeScript SDK, loaded only by this command.
 *
 * One robots.txt cache serves every call and every agent: each agent gets
 * its own RobotsClient (rules are chosen per product token), and all of them
 * share one MemoryRobotsStore, so an origin's robots.txt is fetched once.
 * An agent's prompt may be hostile, so non-public origins (loopback,
 * private, link-local, `localhost`) are refused unless the server was
 * started with --allow-private-origins.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { blanketReason } from "../client/blanket-reason.js";
import type { AccessCheck } from "../client/client-types.js";
import { MemoryRobotsStore, RobotsClient } from "../entries/node.js";
import { parseDocument } from "../explain/document.js";
import { createExplainer } from "../explain/explain-url.js";
import { isValidProductToken } from "../match/agent-token.js";
import { fetchPageRules } from "../page-rules-io/fetch-page.js";
import { parseRobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import { ruleText } from "../protocol/rule-text.js";
import { usagePreferences } from "../usage/usage-preferences.js";
import { packageVersion } from "./io.js";
import { timeoutSpread } from "./timeout.js";

export interface McpOptions {
  /** The agent a call that names none is answered for. */
  readonly agent: string;
  readonly profile: Profile;
  readonly allowPrivateOrigins: boolean;
  /** Bound on each robots.txt and page fetch, ms; the client's default when undefined. */
  readonly timeoutMs: number | undefined;
}

/** Agents with a client at once; the least recently used one is closed past it. */
const MAX_AGENTS = 64;

/** A product token (docs/protocol.md#choosing-rules). */
const AGENT = z
  .string()
  .max(128)
  .refine(isValidProductToken, "an agent is a product token: letters, '-' and '_' (e.g. GPTBot)");
const URL_TEXT = z.string().min(1).max(8192);

/** One client per agent over one shared robots.txt cache. */
class Clients {
  readonly #store = new MemoryRobotsStore();
  readonly #clients = new Map<string, RobotsClient>();
  constructor(readonly options: McpOptions) {}

  for(agent: string | undefined): RobotsClient {
    const token = agent ?? this.options.agent;
    const known = this.#clients.get(token);
    if (known !== undefined) {
      this.#clients.delete(token);
      this.#clients.set(token, known);
      return known;
    }
    const client = new RobotsClient(`${token} (robots-exclusion MCP server)`, {
      productToken: token,
      profile: this.options.profile,
      store: this.#store,
      refusePrivateOrigins: !this.options.allowPrivateOrigins,
      ...(this.options.timeoutMs === undefined
        ? {}
        : {
            totalTimeoutMs: this.options.timeoutMs,
            connectTimeoutMs: Math.min(this.options.timeoutMs, 5_000),
          }),
    });
    this.#clients.set(token, client);
    if (this.#clients.size > MAX_AGENTS) {
      const [oldest, old] = this.#clients.entries().next().value!;
      this.#clients.delete(oldest);
      void old.close();
    }
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
    this.#clients.clear();
  }
}

/** A tool's refusal or an input the checks below reject: shown to the model as a tool error. */
class ToolError extends Error {}

type ToolResult = {
  content: { type: "text"; text: string }[];
  isError?: boolean;
};

/** A tool's answer: a one-line summary, then the details as JSON. */
function answer(summary: string, details: unknown): ToolResult {
  return { content: [{ type: "text", text: `${summary}\n${JSON.stringify(details, null, 2)}` }] };
}

/** Runs a tool body; a RobotsError (bad URL, scheme, agent) or a refusal becomes a tool error. */
async function tool(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    const known =
      error instanceof ToolError || (error instanceof Error && error.name === "RobotsError");
    if (!known) throw error;
    return { content: [{ type: "text", text: error.message }], isError: true };
  }
}

/** The client's check of `url`, refused as an error when its origin is not public. */
async function checked(client: RobotsClient, url: string): Promise<AccessCheck> {
  const result = await client.check(url);
  if (result.source.basis === "private-origin") throw refused(result.reason);
  return result;
}

function refused(reason: string | null): ToolError {
  return new ToolError(
    `${reason ?? "a non-public origin"}; start the server with --allow-private-origins to allow it`,
  );
}

/** Where the rules of a check came from, in the terms the tools report. */
function sourceOf(result: AccessCheck): "fetched" | "cached" | "unreachable" | "none" {
  const s = result.source;
  if (s.basis === "server-error-disallow" || s.basis === "server-error-allow") return "unreachable";
  if (s.basis === "robots-txt-itself") return "none";
  return s.fetched ? "fetched" : "cached";
}

/** The verdict of a check as the tools report it. */
function verdictJson(result: AccessCheck) {
  return {
    url: result.url,
    agent: result.agent,
    allowed: result.allowed,
    line: result.line,
    rule: result.rule === null ? null : { kind: result.rule.kind, value: result.rule.value },
    why: result.rule === null ? blanketReason(result) : null,
    source: sourceOf(result),
    robotsTxt: {
      url: result.source.robotsUrl,
      basis: result.source.basis,
      status: result.source.status,
    },
  };
}

function verdictLine(result: AccessCheck): string {
  const word = result.allowed ? "allowed" : "disallowed";
  const why =
    result.rule === null ? blanketReason(result) : `line ${result.line}: ${ruleText(result.rule)}`;
  return `${word} for ${result.agent}: ${result.url} (${why})`;
}

/** Starts the server on stdin/stdout; resolves when the client disconnects. */
export async function runMcpServer(options: McpOptions): Promise<void> {
  const clients = new Clients(options);
  const server = new McpServer(
    { name: "robots-exclusion", version: packageVersion() },
    {
      instructions:
        "Ask before fetching a URL: check_url says whether robots.txt lets an agent fetch it; page_rules and usage_preferences say what the page and site allow done with it.",
    },
  );
  registerTools(server, clients);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.once("end", () => void server.close());
  await closed;
  await clients.close();
}

function registerTools(server: McpServer, clients: Clients): void {
  const agentField = AGENT.optional().describe(
    `the crawler's product token (default ${clients.options.agent})`,
  );
  server.registerTool(
    "check_url",
    {
      description:
        "May this agent fetch this URL? The robots.txt verdict, the deciding line and rule, and whether the rules were fetched now, cached, or unreachable.",
      inputSchema: { url: URL_TEXT.describe("an http(s) URL"), agent: agentField },
    },
    ({ url, agent }) =>
      tool(async () => {
        const result = await checked(clients.for(agent), url);
        return answer(verdictLine(result), verdictJson(result));
      }),
  );
  server.registerTool(
    "explain",
    {
      description:
        "Explain robots.txt verdicts: for each URL, whether the agent may fetch it, which line decides and why, and which other rules lost. Give the robots.txt as text, or a URL whose robots.txt is fetched.",
      inputSchema: {
        robots_txt: z
          .string()
          .max(512 * 1024)
          .optional()
          .describe("the robots.txt body"),
        robots_txt_url: URL_TEXT.optional().describe(
          "any URL of the site whose robots.txt to fetch",
        ),
        agent: agentField,
        urls: z.array(URL_TEXT).min(1).max(100).describe("URLs (or paths, with robots_txt)"),
      },
    },
    (input) => tool(() => explainTool(clients, input)),
  );
  server.registerTool(
    "page_rules",
    {
      description:
        "What a page says about itself for an agent: its X-Robots-Tag headers and robots meta tags combined (index, follow, snippet, …). The page is fetched only if robots.txt allows it.",
      inputSchema: { url: URL_TEXT.describe("an http(s) URL"), agent: agentField },
    },
    ({ url, agent }) =>
      tool(async () => {
        const client = clients.for(agent);
        await checked(client, url);
        const r = await fetchPageRules(url, {
          client,
          ...timeoutSpread(clients.options.timeoutMs),
        });
        const f = r.fetch;
        if (f.kind === "disallowed") {
          return answer(`not fetched: ${verdictLine(f.check)}`, {
            url: r.url,
            fetched: false,
            robotsTxt: verdictJson(f.check),
          });
        }
        if (f.kind === "failed") throw new ToolError(`cannot fetch ${f.url}: ${f.reason}`);
        const p = r.policy!;
        return answer(
          `${p.index ? "index" : "noindex"}, ${p.follow ? "follow" : "nofollow"} for ${p.agent}: ${r.url}`,
          {
            url: r.url,
            redirects: r.redirects,
            status: f.status,
            policy: p,
            statements: r.statements,
            problems: r.problems,
          },
        );
      }),
  );
  server.registerTool(
    "usage_preferences",
    {
      description:
        "The AI usage preferences a site states for a URL (Content-Usage and Content-Signal, in robots.txt and response headers): may it be used for AI training, AI input, search?",
      inputSchema: { url: URL_TEXT.describe("an http(s) URL"), agent: agentField },
    },
    ({ url, agent }) => tool(() => usageTool(clients, url, agent)),
  );
}

async function explainTool(
  clients: Clients,
  input: {
    robots_txt?: string | undefined;
    robots_txt_url?: string | undefined;
    agent?: string | undefined;
    urls: string[];
  },
): Promise<ToolResult> {
  const agent = input.agent ?? clients.options.agent;
  if ((input.robots_txt === undefined) === (input.robots_txt_url === undefined)) {
    throw new ToolError("give exactly one of robots_txt (the file's text) and robots_txt_url");
  }
  let body: Uint8Array | string;
  let from: string;
  if (input.robots_txt !== undefined) {
    body = input.robots_txt;
    from = "the robots.txt given";
  } else {
    const client = clients.for(agent);
    const site = input.robots_txt_url!;
    const snapshot = await client.robots(site);
    if (snapshot.source.basis === "private-origin") {
      throw refused(`${snapshot.source.origin} is not a public origin`);
    }
    const urls = input.urls.map((u) => onOrigin(u, site));
    if (snapshot.robots === null) {
      // No file applies: every URL of the origin gets the same blanket verdict.
      const results = await Promise.all(urls.map((u) => checked(client, u)));
      return answer(
        `${snapshot.source.robotsUrl}: ${blanketReason(snapshot)}`,
        results.map(verdictJson),
      );
    }
    body = snapshot.entry.good?.body ?? new Uint8Array();
    from = snapshot.source.robotsUrl;
  }
  const explainer = createExplainer(
    parseDocument(body, { profile: clients.options.profile }),
    agent,
  );
  const explained = input.urls.map((u) => {
    const e = explainer.explain(u);
    return {
      url: e.url,
      path: e.path,
      allowed: e.allowed,
      line: e.line,
      rule: e.rule === null ? null : { kind: e.rule.kind, value: e.rule.value },
      decidedBecause: e.decidedBecause,
      context: e.context,
      others: e.others,
      notes: e.notes,
    };
  });
  const allowed = explained.filter((e) => e.allowed).length;
  return answer(`${from}, for ${agent}: ${allowed} of ${explained.length} allowed`, {
    agent,
    fileNotes: explainer.fileNotes,
    urls: explained,
  });
}

/** `url` resolved against `site`; a URL on another origin is not this robots.txt's to explain. */
function onOrigin(url: string, site: string): string {
  let resolved: URL;
  try {
    resolved = new URL(url, site);
  } catch {
    throw new ToolError(`not a URL: ${JSON.stringify(url)}`);
  }
  if (resolved.origin !== new URL(site).origin) {
    throw new ToolError(
      `${resolved.href} is not on ${new URL(site).origin}, whose robots.txt this is`,
    );
  }
  return resolved.href;
}

async function usageTool(
  clients: Clients,
  url: string,
  agent: string | undefined,
): Promise<ToolResult> {
  const client = clients.for(agent);
  await checked(client, url);
  const r = await fetchPageRules(url, { client, ...timeoutSpread(clients.options.timeoutMs) });
  const f = r.fetch;
  if (f.kind === "failed") throw new ToolError(`cannot fetch ${f.url}: ${f.reason}`);
  // The copy robots.txt was checked with (cached by then); a blanket
  // outcome (404, an outage) has no lines, so no preferences of its own.
  const snapshot = await client.robots(f.url);
  const usage = usagePreferences({
    robots: snapshot.robots ?? parseRobotsTxt(""),
    agent: client.productToken,
    url: f.check.path,
    allowed: f.check.allowed,
    ...(f.kind === "fetched" ? { headers: f.headers } : {}),
  });
  const said = Object.entries(usage.contentUsage)
    .concat(Object.entries(usage.contentSignal))
    .filter(([, v]) => v.preference !== "unknown")
    .map(([k, v]) => `${k}=${v.preference === "allowed" ? "y" : "n"}`);
  return answer(
    `${said.length === 0 ? "no usage preferences stated" : said.join(", ")} for ${client.productToken}: ${r.url}`,
    { url: r.url, fetched: f.kind === "fetched", robotsTxt: verdictJson(f.check), usage },
  );
}
