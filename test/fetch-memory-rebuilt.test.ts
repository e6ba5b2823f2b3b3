/**
 * maxBytes bounds heap + external for the shapes whose parts rebuilt on
 * demand are largest: sitemaps() and the directives read for every
 * origin (test/helpers/memory-shapes.ts has the shapes and the test).
 */
import { boundsHeap } from "./helpers/memory-shapes.js";

boundsHeap(["many Sitemap lines, sitemaps() read", "unknown directives, read"]);
