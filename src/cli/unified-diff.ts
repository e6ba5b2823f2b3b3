/**
 * A unified diff of two files (`robots lint --fix-dry-run`), in the format
 * `patch` and `git apply` read: `---`/`+++` headers, `@@` hunks with three
 * lines of context, "\ No newline at end of file" where a last line has no
 * ending. Lines compare as bytes, endings included, so a changed line
 * ending shows. Lines are shown as UTF-8 text escaped for a terminal, with
 * a CRLF ending kept: the diff is for reading, and `patch` applies it
 * exactly to a text file with LF or CRLF endings.
 *
 * Myers' O(ND) algorithm on the lines between the common head and tail.
 * Past MAX_D differences (never for lint fixes, which touch few lines) the
 * middle is shown as one replaced block: still a correct diff, not the
 * shortest.
 */
import { splitByteLines } from "../lint/byte-lines.js";
import { esc } from "./escape.js";

const CONTEXT = 3;
const MAX_D = 2000;

/** One line: its bytes as a latin1 string (exact), ending included; no empty last line. */
function splitLines(body: Uint8Array): string[] {
  const lines = splitByteLines(body);
  if (lines[lines.length - 1]!.text.length === 0) lines.pop();
  return lines.map((l) => latin1(l.text) + latin1(l.eol));
}

function latin1(b: Uint8Array): string {
  let out = "";
  for (let i = 0; i < b.length; i += 4096) {
    out += String.fromCharCode(...b.subarray(i, Math.min(b.length, i + 4096)));
  }
  return out;
}

/** An edit script: " " kept, "-" only in a, "+" only in b. */
type Op = " " | "-" | "+";

/** The shortest edit script from a to b (Myers), or undefined past MAX_D. */
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!)
          ? v[off + k + 1]!
          : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, off, n, m, d);
    }
  }
  return undefined;
}

function backtrack(
  trace: readonly Int32Array[],
  off: number,
  n: number,
  m: number,
  dEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!);
    const pk = down ? k + 1 : k - 1;
    const px = v[off + pk]!;
    const py = px - pk;
    while (x > px && y > py) {
      ops.push(" ");
      x--;
      y--;
    }
    ops.push(down ? "+" : "-");
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) {
    ops.push(" ");
    x--;
    y--;
  }
  return ops.reverse();
}

/** The edit script for the whole files: common head and tail kept, the middle diffed. */
function script(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const mid = myers(midA, midB) ?? [...midA.map((): Op => "-"), ...midB.map((): Op => "+")];
  return [...new Array<Op>(head).fill(" "), ...mid, ...new Array<Op>(tail).fill(" ")];
}

/** A line as the diff shows it: its text escaped, and a note when it has no ending. */
function shown(prefix: Op, line: string): string {
  const ended = line.endsWith("\n") || line.endsWith("\r");
  const text = line.replace(/\r?\n$|\r$/, "");
  const body = esc(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
  // A CRLF ending is kept as it is, as diff -u writes it, so that patch restores it.
  const cr = line.endsWith("\r\n") ? "\r" : "";
  return `${prefix}${body}${cr}\n${ended ? "" : "\\ No newline at end of file\n"}`;
}

/** The unified diff from `before` to `after`, labelled `a/<label>` and `b/<label>`; "" when equal. */
export function unifiedDiff(label: string, before: Uint8Array, after: Uint8Array): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = script(a, b);
  if (ops.every((o) => o === " ")) return "";
  // Positions of each op in a and b.
  const pos: { op: Op; ia: number; ib: number }[] = [];
  let ia = 0;
  let ib = 0;
  for (const op of ops) {
    pos.push({ op, ia, ib });
    if (op !== "+") ia++;
    if (op !== "-") ib++;
  }
  let out = `--- a/${esc(label)}\n+++ b/${esc(label)}\n`;
  let i = 0;
  while (i < pos.length) {
    if (pos[i]!.op === " ") {
      i++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT after the last change within reach.
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    let lastChange = i;
    while (end < pos.length && end - lastChange <= 2 * CONTEXT) {
      if (pos[end]!.op !== " ") lastChange = end;
      end++;
    }
    end = Math.min(pos.length, lastChange + CONTEXT + 1);
    const slice = pos.slice(start, end);
    const countA = slice.filter((p) => p.op !== "+").length;
    const countB = slice.filter((p) => p.op !== "-").length;
    const first = slice[0]!;
    const fromA = countA === 0 ? first.ia : first.ia + 1;
    const fromB = countB === 0 ? first.ib : first.ib + 1;
    out += `@@ -${fromA},${countA} +${fromB},${countB} @@\n`;
    for (const p of slice) out += shown(p.op, p.op === "+" ? b[p.ib]! : a[p.ia]!);
    i = end;
  }
  return out;
}
