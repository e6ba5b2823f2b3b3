/**
 * Reading the robots meta tags of an HTML document: only its head, only up
 * to a byte limit, and stopping as soon as the head is over
 * (draft-illyes-repext-03 §4: only `meta` elements in the head count).
 *
 * The bytes go through parse5's tokenizer — the WHATWG HTML tokenizer, the
 * same state machine browsers run — so comments, `<script>` and `<style>`
 * contents, unquoted and reordered attributes, duplicate attributes (the
 * first wins) and upper case read exactly as a browser reads them. We chose
 * parse5 over htmlparser2 for that: htmlparser2 is faster but its tokenizer
 * is not the standard's (it differs on script-data escapes, `<!-->` and
 * attribute edge cases), and a crawler's reading must agree with the
 * browser's. Only the tokenizer is used, not the tree builder: the part of
 * tree construction that decides where the head ends is small and is
 * written out below (HTML §13.2.6.4.2–4.6, "before head" to "after head").
 */
import { type Token, type TokenHandler, Tokenizer, TokenizerMode } from "parse5";

/** One `<meta name content>` of the head, attributes as the tokenizer read them. */
export interface HeadMeta {
  /** The meta tag's name, lowercased. */
  readonly name: string;
  /** Its content as written. */
  readonly content: string;
}

/**
 * A `<meta name content>` that is not in the head as a crawler that runs
 * scripts reads it: after the head ended (`body`), or inside a `<noscript>`
 * of the head, which is text when scripts run (`noscript`).
 */
export interface IgnoredMeta extends HeadMeta {
  /** Where it was: after the head, or in a head `<noscript>`. */
  readonly where: "body" | "noscript";
  /** 1-based line of the tag in the document. */
  readonly line: number;
}

/** How reading the head ended. */
export type HeadEnd =
  /** The head ended (a body element, text, or </body>/</html>): everything was read. */
  | "head-end"
  /** The document ended inside the head: everything was read. */
  | "eof"
  /** The byte limit came first: metas after it were not seen. */
  | "limit";

/** The head's meta tags, and those that are ignored. */
export interface HeadRead {
  /** The head's `<meta name content>` elements, in order. */
  readonly metas: readonly HeadMeta[];
  /**
   * Named metas outside the head (read on to the byte limit after the head
   * ended) or inside a `<noscript>` of the head; at most MAX_HEAD_METAS.
   */
  readonly ignored: readonly IgnoredMeta[];
  /** Bytes given to the tokenizer. */
  readonly bytesRead: number;
  /** How reading ended. */
  readonly end: HeadEnd;
}

/** Default byte limit: heads larger than 1 MiB are rare (inline CSS/JS) and Google reads 15 MB pages. */
export const DEFAULT_HEAD_BYTES = 1024 * 1024;
/** At most this many metas are kept (a bound on memory for hostile pages). */
export const MAX_HEAD_METAS = 1000;
/**
 * After the head ends, at most this many more bytes are read for robots
 * metas that do not count (a misplaced one is near the top); the page's
 * byte limit still bounds the whole read.
 */
export const AFTER_HEAD_BYTES = 64 * 1024;
/** At most this much of a `<noscript>`'s text is kept to look for metas in it. */
const MAX_NOSCRIPT_CHARS = 64 * 1024;

/** Elements whose contents the tokenizer reads as text (scripting enabled, as in a browser). */
const TEXT_MODE: Readonly<Record<string, number>> = {
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  // With scripting enabled a browser reads <noscript> as text, so a meta inside it is not a meta.
  noscript: TokenizerMode.RAWTEXT,
  script: TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/** Start tags the "in head" and "after head" modes keep in the head. */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  "base",
  "basefont",
  "bgsound",
  "link",
  "meta",
  "title",
  "style",
  "script",
  "noframes",
  "noscript",
  "template",
]);

type Decoder = InstanceType<typeof TextDecoder>;

function attr(token: Token.TagToken, name: string): string | undefined {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return undefined;
}

/**
 * A push reader: write() chunks until it returns true (the head is over),
 * then result(). The same reader serves a fetched stream and a file.
 */
export class HeadReader {
  readonly #metas: HeadMeta[] = [];
  readonly #limit: number;
  readonly #tokenizer: Tokenizer;
  #decoder: Decoder | null = null;
  #bytes = 0;
  #end: HeadEnd | null = null;
  /** Nesting of <template>: its contents are not part of the head (HTML §4.12.3). */
  #template = 0;
  /** The text element (title, script, style…) being read, whose contents are not markup. */
  #inText: string | null = null;
  readonly #ignored: IgnoredMeta[] = [];
  /** The head is over; the rest, up to the limit, is read for metas that do not count. */
  #afterHead = false;
  /** Bytes given to the tokenizer when the head ended. */
  #headEndBytes = 0;
  /** A `<noscript>` of the head: its text, and the line it starts on. */
  #noscript: { text: string; line: number } | null = null;

  constructor(limit = DEFAULT_HEAD_BYTES) {
    this.#limit = limit;
    // Text ends the head, except inside a text element (<title>, <script>, …) or a template.
    const text = (token: Token.CharacterToken) => {
      const ns = this.#noscript;
      if (ns !== null && ns.text.length < MAX_NOSCRIPT_CHARS) ns.text += token.chars;
      if (this.#end === null && this.#inText === null && this.#template === 0) {
        this.#headEnded();
      }
    };
    const handler: TokenHandler = {
      onComment() {},
      onDoctype() {},
      onWhitespaceCharacter: (token) => {
        const ns = this.#noscript;
        if (ns !== null && ns.text.length < MAX_NOSCRIPT_CHARS) ns.text += token.chars;
      },
      onCharacter: text,
      onNullCharacter: text,
      onEof: () => this.#stop("eof"),
      onStartTag: (token) => {
        if (this.#afterHead) this.#bodyTag(token);
        // The tokenizer may hand over a token after the one that ended the head.
        else if (this.#end === null) this.#startTag(token);
      },
      onEndTag: (token) => {
        if (this.#afterHead) {
          if (token.tagName === this.#inText) this.#inText = null;
        } else if (this.#end === null) this.#endTag(token.tagName);
      },
    };
    this.#tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, handler);
  }

  /** The head is over: its metas are final; read on for metas that do not count. */
  #headEnded(): void {
    if (this.#end !== null) return;
    this.#end = "head-end";
    this.#afterHead = true;
    this.#headEndBytes = this.#bytes;
  }

  #ignore(where: IgnoredMeta["where"], token: Token.TagToken, line: number): void {
    const name = attr(token, "name");
    if (name === undefined || this.#ignored.length >= MAX_HEAD_METAS) return;
    this.#ignored.push({ name, content: attr(token, "content") ?? "", where, line });
  }

  /** A start tag after the head: metas are noted, text elements skipped as in the head. */
  #bodyTag(token: Token.TagToken): void {
    if (this.#inText !== null) return;
    const mode = TEXT_MODE[token.tagName];
    if (mode !== undefined) {
      this.#tokenizer.state = mode as never;
      this.#inText = token.tagName;
    }
    if (token.tagName === "meta") this.#ignore("body", token, token.location?.startLine ?? 0);
  }

  /**
   * The text of a `<noscript>` of the head, read as markup (as a crawler
   * that runs no scripts reads it): its metas are noted, not applied.
   */
  #noscriptEnded(): void {
    const ns = this.#noscript;
    this.#noscript = null;
    if (ns === null || !ns.text.includes("<")) return;
    const inner = new Tokenizer(
      { sourceCodeLocationInfo: true },
      {
        onComment() {},
        onDoctype() {},
        onWhitespaceCharacter() {},
        onCharacter() {},
        onNullCharacter() {},
        onEof() {},
        onEndTag() {},
        onStartTag: (t) => {
          if (t.tagName === "meta")
            this.#ignore("noscript", t, ns.line + (t.location?.startLine ?? 1) - 1);
        },
      },
    );
    inner.write(ns.text, true);
  }

  #endTag(name: string): void {
    if (this.#inText !== null) {
      // The tokenizer only ends a text element with its own end tag.
      if (name === this.#inText) {
        this.#inText = null;
        if (name === "noscript") this.#noscriptEnded();
      }
      return;
    }
    if (name === "template") {
      if (this.#template > 0) this.#template--;
    } else if (this.#template === 0 && (name === "body" || name === "html" || name === "br")) {
      // "in head"/"after head": these end tags act as "anything else", which starts the body.
      this.#headEnded();
    }
  }

  #startTag(token: Token.TagToken): void {
    const name = token.tagName;
    const mode = TEXT_MODE[name];
    if (mode !== undefined) {
      // A self-closing flag is ignored on these: `<script/>` still starts script data.
      this.#tokenizer.state = mode as never;
      this.#inText = name;
      if (name === "noscript" && this.#template === 0) {
        this.#noscript = { text: "", line: token.location?.startLine ?? 1 };
      }
    }
    if (this.#template > 0) {
      if (name === "template") this.#template++;
      return;
    }
    if (name === "html" || name === "head") return;
    if (!HEAD_ELEMENTS.has(name)) {
      this.#headEnded();
      this.#bodyTag(token);
      return;
    }
    if (name === "template") this.#template++;
    else if (name === "meta" && this.#metas.length < MAX_HEAD_METAS) {
      const metaName = attr(token, "name");
      if (metaName !== undefined)
        this.#metas.push({ name: metaName, content: attr(token, "content") ?? "" });
    }
  }

  #stop(end: HeadEnd): void {
    this.#afterHead = false;
    if (this.#end === null) this.#end = end;
    this.#tokenizer.pause();
  }

  /**
   * The limit is reached or the document ended: further writes are
   * ignored. After the head ends, the rest is still read (up to the
   * limit) for robots metas that do not count, to report them.
   */
  get done(): boolean {
    return this.#end !== null && !this.#afterHead;
  }

  /** Feed bytes; returns true once nothing more is needed. */
  write(chunk: Uint8Array): boolean {
    if (this.done) return true;
    const room = this.#limit - this.#bytes;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#bytes += part.length;
    const decoder = this.#decoderFor(part);
    const text = decoder.decode(part, { stream: true });
    if (text.length > 0) this.#tokenizer.write(text, false);
    if (!this.done && this.#bytes >= this.#limit) this.#stop("limit");
    if (this.#afterHead && this.#bytes - this.#headEndBytes >= AFTER_HEAD_BYTES) {
      this.#stop("head-end");
    }
    return this.done;
  }

  /** The bytes have ended. */
  end(): HeadRead {
    if (!this.done) {
      const rest = this.#decoder?.decode() ?? "";
      this.#tokenizer.write(rest, true);
      this.#stop("eof");
    }
    return {
      metas: this.#metas,
      ignored: this.#ignored,
      bytesRead: this.#bytes,
      end: this.#end ?? "eof",
    };
  }

  /** Byte order marks choose UTF-16 or UTF-8 (HTML §13.2.3.1); otherwise UTF-8, as the meta values are ASCII. */
  #decoderFor(first: Uint8Array): Decoder {
    if (this.#decoder !== null) return this.#decoder;
    const b0 = first[0];
    const b1 = first[1];
    const label =
      b0 === 0xfe && b1 === 0xff ? "utf-16be" : b0 === 0xff && b1 === 0xfe ? "utf-16le" : "utf-8";
    this.#decoder = new TextDecoder(label);
    return this.#decoder;
  }
}

/** Read the head metas of a whole document (a string or bytes). */
export function readHeadMetas(html: string | Uint8Array, limit = DEFAULT_HEAD_BYTES): HeadRead {
  const reader = new HeadReader(limit);
  reader.write(typeof html === "string" ? new TextEncoder().encode(html) : html);
  return reader.end();
}
