/**
 * Heap + external after full collections. Node frees the external memory of
 * collected buffers after the collection, on its own schedule: a short
 * pause between collections lets it go, or memory already released would
 * still be counted. `gc` is the function `--expose-gc` provides.
 */
export async function usedMemory(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
