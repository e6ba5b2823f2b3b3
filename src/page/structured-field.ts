/**
 * The `Robots-Tag` field of draft-illyes-repext-03 §3.1.1: a Structured
 * Field List (RFC 8941 §3.1) whose members are product tokens (or `*`) and
 * whose parameters are the rules: `Robots-Tag: *;noindex;nosnippet,
 * ExampleBot;max-snippet=20`. A parameter without a value (`;noindex`) is a
 * flag rule; `max-snippet=20`, `max-image-preview=large` and
 * `unavailable_after="2030-01-01"` carry their value.
 *
 * RFC 8941 §4.2: a field that does not parse is ignored as a whole, so this
 * parser is strict, reports why, and applies nothing. It is one pass over
 * the text with no backtracking.
 */
import { type PageRule, readRule } from "./rules.js";
import type { PageStatement } from "./statements.js";

export type RobotsTagField =
  | { readonly ok: true; readonly statements: PageStatement[] }
  | { readonly ok: false; readonly problem: string };

class Fail extends Error {}

type Bare = { kind: "token" | "string" | "number" | "other"; text: string } | true;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isAlpha(c: number): boolean {
  return isLcAlpha(c) || (c >= 0x41 && c <= 0x5a);
}
/** RFC 9110 tchar, plus ":" and "/" (RFC 8941 sf-token). */
function isTokenChar(c: number): boolean {
  return (
    isAlpha(c) ||
    isDigit(c) ||
    c === 0x3a ||
    c === 0x2f ||
    (c > 0x20 && c < 0x7f && "!#$%&'*+-.^_`|~".includes(String.fromCharCode(c)))
  );
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }
  spaces(): void {
    while (this.peek() === 0x20) this.i++;
  }
  ows(): void {
    while (this.peek() === 0x20 || this.peek() === 0x09) this.i++;
  }
  done(): boolean {
    return this.i >= this.s.length;
  }

  key(): string {
    const c = this.peek();
    if (!isLcAlpha(c) && c !== 0x2a)
      throw new Fail(`a parameter name must start with a-z or * at ${this.i + 1}`);
    const start = this.i;
    for (;;) {
      const d = this.peek();
      if (isLcAlpha(d) || isDigit(d) || d === 0x5f || d === 0x2d || d === 0x2e || d === 0x2a)
        this.i++;
      else break;
    }
    return this.s.slice(start, this.i);
  }

  bare(): Exclude<Bare, true> {
    const c = this.peek();
    const start = this.i;
    if (c === 0x22) {
      // sf-string: printable ASCII, \" and \\ escapes.
      this.i++;
      let out = "";
      for (;;) {
        const d = this.peek();
        if (d === -1) throw new Fail("a string is not closed");
        this.i++;
        if (d === 0x22) return { kind: "string", text: out };
        if (d === 0x5c) {
          const e = this.peek();
          if (e !== 0x22 && e !== 0x5c) throw new Fail(`a bad escape in a string at ${this.i}`);
          this.i++;
          out += String.fromCharCode(e);
        } else if (d < 0x20 || d > 0x7e)
          throw new Fail(`a character not allowed in a string at ${this.i}`);
        else out += String.fromCharCode(d);
      }
    }
    if (c === 0x2d || isDigit(c)) {
      if (c === 0x2d) this.i++;
      let digits = 0;
      while (isDigit(this.peek()) || this.peek() === 0x2e) {
        this.i++;
        if (++digits > 20) throw new Fail("a number is too long");
      }
      const text = this.s.slice(start, this.i);
      if (digits === 0) throw new Fail(`a number without digits at ${start + 1}`);
      return { kind: "number", text };
    }
    if (isAlpha(c) || c === 0x2a) {
      while (isTokenChar(this.peek())) this.i++;
      return { kind: "token", text: this.s.slice(start, this.i) };
    }
    if (c === 0x3f || c === 0x3a || c === 0x40 || c === 0x25) {
      // Boolean, byte sequence, date, display string: read to the next delimiter; no rule takes them.
      this.i++;
      while (!this.done() && this.peek() !== 0x3b && this.peek() !== 0x2c && this.peek() !== 0x20) {
        this.i++;
      }
      return { kind: "other", text: this.s.slice(start, this.i) };
    }
    throw new Fail(`an unexpected character at ${this.i + 1}`);
  }

  params(): Array<[string, Bare]> {
    const out: Array<[string, Bare]> = [];
    while (this.peek() === 0x3b) {
      this.i++;
      this.spaces();
      const k = this.key();
      let v: Bare = true;
      if (this.peek() === 0x3d) {
        this.i++;
        v = this.bare();
      }
      out.push([k, v]);
    }
    return out;
  }
}

function ruleOf(key: string, value: Bare): PageRule {
  if (value === true) return readRule(key, undefined, key);
  if (value.kind === "other") {
    return { kind: "unknown", name: key, text: `${key}=${value.text}` };
  }
  return readRule(
    key,
    value.text,
    `${key}=${value.kind === "string" ? JSON.stringify(value.text) : value.text}`,
  );
}

/** Parse one Robots-Tag field value (repeated fields may be joined with ", "). */
export function parseRobotsTagField(value: string): RobotsTagField {
  const r = new Reader(value);
  const statements: PageStatement[] = [];
  try {
    r.spaces();
    if (r.done()) return { ok: true, statements };
    for (;;) {
      if (r.peek() === 0x28) throw new Fail("an inner list is not a product token");
      const item = r.bare();
      if (item.kind !== "token" && item.kind !== "string") {
        throw new Fail(`"${item.text}" is not a product token`);
      }
      const params = r.params();
      const scope = item.text === "*" ? null : item.text.toLowerCase();
      statements.push({
        via: "robots-tag",
        scope,
        rules: params.map(([k, v]) => ruleOf(k, v)),
      });
      r.ows();
      if (r.done()) break;
      if (r.peek() !== 0x2c) throw new Fail(`expected "," at ${r.i + 1}`);
      r.i++;
      r.ows();
      if (r.done()) throw new Fail("a trailing comma");
    }
    // Trailing spaces are removed before parsing (RFC 8941 §4.2).
    return { ok: true, statements };
  } catch (err) {
    if (err instanceof Fail)
      return { ok: false, problem: `not a Structured Field list: ${err.message}` };
    throw err;
  }
}
