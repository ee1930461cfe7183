/**
 * Collects work that arrives one item at a time (network answers, event records) and hands it on in batches,
 * one batch at a time: items that arrive while a batch is written wait for the next one, so the batches grow
 * with the load and a lone item goes at once. `add` resolves when its item is written. A batch that fails is
 * written again item by item, so only a bad item fails (its `add` rejects with its error).
 */
export function batcher<T>(flush: (items: T[]) => Promise<void>, max = 500): (item: T) => Promise<void> {
  const queue: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let running = false;

  async function drain() {
    while (queue.length) {
      const batch = queue.splice(0, max);
      try {
        await flush(batch.map((b) => b.item));
        for (const b of batch) b.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0].reject(error);
        else for (const b of batch) await flush([b.item]).then(b.resolve, b.reject);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running) return;
      running = true;
      // Items added in the same turn go out together.
      setImmediate(() => void drain());
    });
}
