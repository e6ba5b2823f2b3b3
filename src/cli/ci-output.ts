/**
 * Output for CI systems: GitHub workflow commands, the Markdown of a job
 * summary, JUnit XML, and appending to the files GitHub names in
 * GITHUB_STEP_SUMMARY and GITHUB_OUTPUT. Every function takes text that may
 * have come from outside (a robots.txt, an expectations file, a server) and
 * escapes it for its destination; `esc` runs first, so control characters
 * and bidirectional overrides show as `\x1b`, `\u202e` there too.
 */
import { appendFileSync } from "node:fs";
import { CliError } from "./errors.js";
import { esc } from "./escape.js";
import { cliIo, cliPath } from "./run-io.js";

/** A workflow command's message: `%`, CR and LF are percent-encoded (GitHub's rule for data). */
export function workflowData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A workflow command's property value: as data, and `:` and `,` too (they end a property). */
export function workflowProperty(text: string): string {
  return workflowData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * Annotations of each level GitHub shows per step (the "Limitations" of
 * problem matchers in GitHub's actions/toolkit); the log keeps every one.
 */
export const ANNOTATIONS_SHOWN = 10;

export type AnnotationLevel = "error" | "warning" | "notice";

/** Where an annotation points: a file of the repository and a line of it. */
export interface AnnotationPlace {
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly title?: string | undefined;
}

/**
 * `::error file=…,line=…,title=…::message`, one line. `message` may hold
 * line breaks of our own (they become %0A, which GitHub shows as new lines);
 * outside text in it must have passed through `esc` already.
 */
export function annotation(
  level: AnnotationLevel,
  place: AnnotationPlace,
  message: string,
): string {
  const props: string[] = [];
  if (place.file !== undefined) props.push(`file=${workflowProperty(esc(place.file))}`);
  if (place.file !== undefined && place.line !== undefined && place.line > 0) {
    props.push(`line=${place.line}`);
  }
  if (place.title !== undefined) props.push(`title=${workflowProperty(esc(place.title))}`);
  return `::${level}${props.length === 0 ? "" : ` ${props.join(",")}`}::${workflowData(message)}\n`;
}

/**
 * Text for a Markdown table cell: no HTML, no emphasis, links, code spans or
 * cell breaks from outside text. `&`, `<`, `>` and `@` become character
 * references; Markdown's other punctuation is backslash-escaped.
 */
export function markdownCell(text: string): string {
  return esc(text).replace(/[\\`*_[\]|~#!&<>@]/g, (c) => {
    switch (c) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      case "@":
        return "&#64;";
      default:
        return `\\${c}`;
    }
  });
}

/**
 * Text for XML content or an attribute value: the five special characters as
 * entities, and no character XML 1.0 forbids (controls become visible
 * escapes through `esc`; an unpaired surrogate becomes U+FFFD).
 */
export function xmlText(text: string): string {
  return esc(text)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Append `text` to the file an environment variable names (GitHub's
 * GITHUB_STEP_SUMMARY, GITHUB_OUTPUT); nothing when it is unset or empty.
 */
export function appendToEnvFile(
  variable: "GITHUB_STEP_SUMMARY" | "GITHUB_OUTPUT",
  text: string,
): void {
  const file = cliIo().env[variable];
  if (file === undefined || file === "") return;
  try {
    appendFileSync(cliPath(file), text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    throw new CliError(
      `cannot append to $${variable} (${JSON.stringify(file)}): ${code === "ENOENT" ? "no such directory" : (err as Error).message}`,
    );
  }
}

/** `name=value` lines for GITHUB_OUTPUT; values are single-line numbers and words. */
export function outputLines(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${String(v).replace(/[\r\n]/g, " ")}\n`)
    .join("");
}
