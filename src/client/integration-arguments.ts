/**
 * The argument checks the integrations (src/crawlee, src/playwright) share:
 * a value handed as the client must have the members the integration uses,
 * and options must be an object. A failure is a RobotsError that says what
 * to pass.
 */
import { RobotsError } from "../errors.js";
import type { RobotsClient } from "./robots-client.js";

/** The members of RobotsClient an integration uses, each with the type it must have. */
export type ClientMembers = Partial<Record<keyof RobotsClient, "function" | "string">>;

/** Throws "invalid-argument" unless `client` has every member of `members` (`caller` names the function). */
export function checkClientArgument(client: unknown, members: ClientMembers, caller: string): void {
  const c = client as Record<string, unknown> | null;
  const missing =
    c === null ||
    typeof c !== "object" ||
    Object.entries(members).some(([name, type]) => typeof c[name] !== type);
  if (missing) {
    throw new RobotsError(
      "invalid-argument",
      `${caller} takes a RobotsClient: new RobotsClient("ExampleBot/1.0 (+https://example.com/bot)") from robots-exclusion/node`,
    );
  }
}

/** Throws "invalid-option" unless `options` is an object. */
export function checkOptionsObject(options: unknown, caller: string): void {
  if (options === null || typeof options !== "object") {
    throw new RobotsError("invalid-option", `${caller} options must be an object`);
  }
}
