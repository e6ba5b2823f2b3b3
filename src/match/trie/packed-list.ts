/**
 * Lists of small integers that V8 keeps "packed" (no holes): a list with
 * holes makes every read also test for one, and writing past a list's end
 * can turn it into a slow dictionary.
 */
import { BIG_LIST } from "../../parse/rule-table.js";

/**
 * A new list of `n` elements `fill` (0 or null) that V8 keeps "packed": copied from
 * the longer scratch list with `slice`, one allocation of the exact size. A list made by
 * `new Array(n)` stays "holey" even once filled, and each read from it then
 * also tests for a hole (seen in the optimised decideIn). Filling one by
 * `push` keeps it packed too, but its growing costs compiling time
 * (docs/performance-decisions.md, Compiling: reused scratch lists).
 */
export function packedList<T>(scratch: T[], fill: T, n: number): T[] {
  while (scratch.length < n) scratch.push(fill);
  return scratch.slice(0, n);
}

/**
 * `n` zeros to be written over: a packed list (packedList), or past
 * BIG_LIST an Int32Array, which costs a fraction of a large list to make
 * (src/parse/rule-table.ts).
 */
export function zeroInts(scratch: number[], n: number): number[] | Int32Array {
  return n > BIG_LIST ? new Int32Array(n) : packedList(scratch, 0, n);
}

/**
 * Grow a scratch list to at least `n` elements, in order: writing past the
 * end of a JS array leaves holes and can turn it into a slow dictionary.
 */
export function ensure(list: number[], n: number): void {
  while (list.length < n) list.push(0);
}
