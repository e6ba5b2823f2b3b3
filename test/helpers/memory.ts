/**
 * Heap + external after full collections. Node frees the external memory of
 * collected buffers after the collection, on its own schedule: a short
 * pause between two collections lets it go, or memory already released
 * would still be counted (more rounds read the same to 0.02 MiB).
 * `gc` is the function `--expose-gc` provides.
 */
export async function usedMemory(gc: () => void): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
