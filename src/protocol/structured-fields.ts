/**
 * RFC 9651 (Structured Field Values for HTTP) §4.2: parsing a List (the
 * syntax of `Robots-Tag`, draft-illyes-repext-03 §3.1.1) and a Dictionary
 * (the syntax of `Content-Usage`, draft-ietf-aipref-attach-05 §2, §3.2;
 * draft-ietf-aipref-vocab-08 §6): the one home of Structured Fields for the
 * page rules and the usage preferences. Strict, as the RFC requires: a value
 * that does not parse is rejected as a whole (§4.2), with the reason and the
 * 1-based position, so callers can report it and apply nothing.
 *
 * One pass over the text, no RegExp, no backtracking; every loop consumes
 * input, so the work is linear in the length. The input is bytes as text
 * (one character per byte, or ASCII): anything outside ASCII fails, as
 * §4.2 says.
 */

/** A bare item (RFC 9651 §3.3). */
export type SfBareItem =
  | { readonly type: "integer" | "decimal" | "date"; readonly value: number }
  | { readonly type: "string" | "token" | "display"; readonly value: string }
  /** Base64 text between the colons, not decoded (no caller needs the bytes). */
  | { readonly type: "bytes"; readonly value: string }
  | { readonly type: "boolean"; readonly value: boolean };

export type SfParams = ReadonlyArray<readonly [string, SfBareItem]>;

export interface SfItem {
  readonly kind: "item";
  readonly bare: SfBareItem;
  readonly params: SfParams;
}

export interface SfInnerList {
  readonly kind: "inner-list";
  readonly items: readonly SfItem[];
  readonly params: SfParams;
}

export type SfMember = SfItem | SfInnerList;

export type SfDictionaryResult =
  /**
   * Members in order. A key given twice keeps its first position and its last
   * value (RFC 9651 §4.2.2: "overwrite its value"); `repeated` lists such keys.
   */
  | {
      readonly ok: true;
      readonly members: ReadonlyArray<readonly [string, SfMember]>;
      readonly repeated: readonly string[];
    }
  | { readonly ok: false; readonly problem: string; readonly at: number };

export type SfListResult =
  | { readonly ok: true; readonly members: readonly SfMember[] }
  | { readonly ok: false; readonly problem: string; readonly at: number };

class Fail extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isAlpha(c: number): boolean {
  return isLcAlpha(c) || (c >= 0x41 && c <= 0x5a);
}
/** RFC 9110 tchar. */
function isTchar(c: number): boolean {
  if (isAlpha(c) || isDigit(c)) return true;
  switch (c) {
    case 0x21: // !
    case 0x23: // #
    case 0x24: // $
    case 0x25: // %
    case 0x26: // &
    case 0x27: // '
    case 0x2a: // *
    case 0x2b: // +
    case 0x2d: // -
    case 0x2e: // .
    case 0x5e: // ^
    case 0x5f: // _
    case 0x60: // `
    case 0x7c: // |
    case 0x7e: // ~
      return true;
    default:
      return false;
  }
}
function isKeyChar(c: number): boolean {
  return isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
}
function isBase64(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
}
function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1; // display strings use lowercase hex only (§4.2.10)
}

function describe(c: number): string {
  return c >= 0x21 && c <= 0x7e
    ? `"${String.fromCharCode(c)}"`
    : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }
  fail(message: string): never {
    throw new Fail(message, this.i + 1);
  }
  unexpected(what: string): never {
    const c = this.peek();
    this.fail(c === -1 ? `${what}, found the end` : `${what}, found ${describe(c)}`);
  }

  /** §4.2.3.3 */
  key(): string {
    const c = this.peek();
    if (!isLcAlpha(c) && c !== 0x2a) {
      if (isAlpha(c)) this.fail(`a key must be lowercase, found ${describe(c)}`);
      this.unexpected("expected a key (a-z or *)");
    }
    const start = this.i;
    while (isKeyChar(this.peek())) this.i++;
    return this.s.slice(start, this.i);
  }

  /** §4.2.3.1 */
  bareItem(): SfBareItem {
    const c = this.peek();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return { type: "string", value: this.string() };
    if (c === 0x2a || isAlpha(c)) {
      const start = this.i;
      this.i++;
      for (;;) {
        const d = this.peek();
        if (isTchar(d) || d === 0x3a || d === 0x2f) this.i++;
        else break;
      }
      return { type: "token", value: this.s.slice(start, this.i) };
    }
    if (c === 0x3a) {
      this.i++;
      const start = this.i;
      while (isBase64(this.peek())) this.i++;
      if (this.peek() !== 0x3a) this.unexpected('a byte sequence must end with ":"');
      const value = this.s.slice(start, this.i);
      this.i++;
      return { type: "bytes", value };
    }
    if (c === 0x3f) {
      this.i++;
      const d = this.peek();
      if (d !== 0x30 && d !== 0x31) this.unexpected("a boolean must be ?0 or ?1");
      this.i++;
      return { type: "boolean", value: d === 0x31 };
    }
    if (c === 0x40) {
      this.i++;
      const n = this.number();
      if (n.type !== "integer") this.fail("a date must be an integer");
      return { type: "date", value: n.value };
    }
    if (c === 0x25) return { type: "display", value: this.display() };
    return this.unexpected("expected a value");
  }

  /** §4.2.4: at most 15 digits, or 12 before and 3 after the point. */
  number(): SfBareItem {
    const start = this.i;
    if (this.peek() === 0x2d) this.i++;
    if (!isDigit(this.peek())) this.unexpected("expected a digit");
    let digits = 0;
    let point = -1;
    for (;;) {
      const c = this.peek();
      if (isDigit(c)) {
        digits++;
      } else if (c === 0x2e && point < 0) {
        if (digits > 12) this.fail("a decimal has more than 12 digits before the point");
        point = digits;
      } else break;
      this.i++;
      if (point < 0 && digits > 15) this.fail("an integer has more than 15 digits");
      if (point >= 0 && digits - point > 3)
        this.fail("a decimal has more than 3 digits after the point");
    }
    const text = this.s.slice(start, this.i);
    if (point < 0) return { type: "integer", value: Number(text) };
    if (point === digits) this.fail("a decimal ends with its point");
    return { type: "decimal", value: Number(text) };
  }

  /** §4.2.5 */
  string(): string {
    this.i++; // "
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === -1) this.fail("a string is not closed");
      this.i++;
      if (c === 0x22) return out;
      if (c === 0x5c) {
        const e = this.peek();
        if (e !== 0x22 && e !== 0x5c) this.unexpected('a string escape must be \\" or \\\\');
        this.i++;
        out += String.fromCharCode(e);
      } else if (c < 0x20 || c > 0x7e) {
        this.i--;
        this.unexpected("a string may hold printable ASCII only");
      } else out += String.fromCharCode(c);
    }
  }

  /** §4.2.10: %"…" with lowercase %xx escapes of UTF-8 bytes. */
  display(): string {
    this.i++; // %
    if (this.peek() !== 0x22) this.unexpected('a display string starts with %"');
    this.i++;
    const bytes: number[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1) this.fail("a display string is not closed");
      if (c < 0x20 || c > 0x7e) this.unexpected("a display string may hold printable ASCII only");
      this.i++;
      if (c === 0x22) break;
      if (c === 0x25) {
        const h = hexValue(this.peek());
        const l = hexValue(this.s.charCodeAt(this.i + 1));
        if (h < 0 || l < 0)
          this.unexpected("a display string escape is % and two lowercase hex digits");
        this.i += 2;
        bytes.push(h * 16 + l);
      } else bytes.push(c);
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    } catch {
      return this.fail("a display string is not UTF-8");
    }
  }

  /** §4.2.3.2: a key given twice keeps its last value. */
  params(): SfParams {
    const out: Array<[string, SfBareItem]> = [];
    while (this.peek() === 0x3b) {
      this.i++;
      while (this.peek() === 0x20) this.i++;
      const k = this.key();
      let v: SfBareItem = { type: "boolean", value: true };
      if (this.peek() === 0x3d) {
        this.i++;
        v = this.bareItem();
      }
      const at = out.findIndex(([name]) => name === k);
      if (at >= 0) out[at] = [k, v];
      else out.push([k, v]);
    }
    return out;
  }

  item(): SfItem {
    const bare = this.bareItem();
    return { kind: "item", bare, params: this.params() };
  }

  /** §4.2.1.1 */
  member(): SfMember {
    if (this.peek() !== 0x28) return this.item();
    this.i++;
    const items: SfItem[] = [];
    for (;;) {
      while (this.peek() === 0x20) this.i++;
      if (this.peek() === 0x29) {
        this.i++;
        return { kind: "inner-list", items, params: this.params() };
      }
      if (this.peek() === -1) this.fail("an inner list is not closed");
      items.push(this.item());
      const c = this.peek();
      if (c !== 0x20 && c !== 0x29) this.unexpected('expected a space or ")" in an inner list');
    }
  }
}

/** §4.2: a structured field is ASCII; anything else fails the whole value. */
function asciiOnly(r: Reader, text: string): void {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7e) {
      r.i = i;
      r.unexpected("a structured field is ASCII only");
    }
  }
}

/** After a member: optional whitespace, then "," and more, or the end (§4.2.1, §4.2.2). Returns false at the end. */
function nextMember(r: Reader, between: string): boolean {
  while (r.peek() === 0x20 || r.peek() === 0x09) r.i++;
  if (r.peek() === -1) return false;
  if (r.peek() !== 0x2c) r.unexpected(between);
  r.i++;
  while (r.peek() === 0x20 || r.peek() === 0x09) r.i++;
  if (r.peek() === -1) r.fail("a trailing comma");
  return true;
}

/** Parse a field value (several field lines joined with ", ") as a List (RFC 9651 §4.2, §4.2.1). */
export function parseSfList(text: string): SfListResult {
  const r = new Reader(text);
  const members: SfMember[] = [];
  try {
    asciiOnly(r, text);
    while (r.peek() === 0x20) r.i++;
    while (r.peek() !== -1) {
      members.push(r.member());
      if (!nextMember(r, 'expected "," between members')) break;
    }
    return { ok: true, members };
  } catch (err) {
    if (err instanceof Fail) return { ok: false, problem: err.message, at: err.at };
    throw err;
  }
}

/** Parse a field value (several field lines joined with ", ") as a Dictionary (RFC 9651 §4.2, §4.2.2). */
export function parseSfDictionary(text: string): SfDictionaryResult {
  const r = new Reader(text);
  const members: Array<[string, SfMember]> = [];
  const index = new Map<string, number>();
  const repeated: string[] = [];
  try {
    asciiOnly(r, text);
    while (r.peek() === 0x20) r.i++;
    while (r.peek() !== -1) {
      const key = r.key();
      let member: SfMember;
      if (r.peek() === 0x3d) {
        r.i++;
        member = r.member();
      } else {
        member = { kind: "item", bare: { type: "boolean", value: true }, params: r.params() };
      }
      const at = index.get(key);
      if (at === undefined) {
        index.set(key, members.length);
        members.push([key, member]);
      } else {
        members[at] = [key, member];
        if (!repeated.includes(key)) repeated.push(key);
      }
      if (!nextMember(r, 'expected "," between members')) break;
    }
    return { ok: true, members, repeated };
  } catch (err) {
    if (err instanceof Fail) return { ok: false, problem: err.message, at: err.at };
    throw err;
  }
}
