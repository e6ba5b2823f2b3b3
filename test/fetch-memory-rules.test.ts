/**
 * maxBytes bounds heap + external for the shapes whose cost is mostly the
 * compiled rules (a client of the smallest maxBytes holds 1–20 of them;
 * one warm-up origin pays their one-time costs), and a file of the
 * costliest retains at most 16 × its bytes
 * (test/helpers/memory-shapes.ts has the shapes and the tests).
 */
import { boundsHeap, retainsAtMost16Times } from "./helpers/memory-shapes.js";

boundsHeap(
  [
    "many rules in one group",
    "wildcard rules",
    "many stars (4,000 a rule)",
    "short wildcard rules",
    "long rules the compact matcher keeps",
    "long lines",
    "many groups naming the crawler",
  ],
  1,
);
retainsAtMost16Times(["many rules in one group", "wildcard rules", "short wildcard rules"]);
