/**
 * maxBytes bounds heap + external for the shapes whose cost is mostly the
 * packed body: a client of the smallest maxBytes holds 110–175 of them
 * (test/helpers/memory-shapes.ts has the shapes and the test).
 */
import { boundsHeap } from "./helpers/memory-shapes.js";

boundsHeap(["one-rule groups", "many user-agent lines", "comments"]);
