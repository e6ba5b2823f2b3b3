import type { RobotsStore } from "../cache/store.js";

/** Whether `v` has the three methods of a store (docs/protocol.md#caching). */
export function isStore(v: unknown): v is RobotsStore {
  const s = v as Partial<Record<keyof RobotsStore, unknown>> | null;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.get === "function" &&
    typeof s.set === "function" &&
    typeof s.delete === "function"
  );
}
