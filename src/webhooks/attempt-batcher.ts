/** At most this many attempts in one statement. */
const MAX_BATCH = 500;

/**
 * Writes items in batches, one batch at a time: an item waits for the batch being written to
 * finish, then goes out with every item that arrived meanwhile. Idle, an item is written at
 * once; busy, batches grow with the load. The webhook dispatcher records its attempts through it
 * (one statement for many deliveries at 500 a second, instead of one each).
 */
export class AttemptBatcher<Item> {
  private waiting: Array<{ item: Item; settle: (error?: unknown) => void }> = [];
  private writing = false;

  constructor(private readonly write: (items: Item[]) => Promise<void>) {}

  /** Resolves once the item's batch is written; rejects with the batch's error. */
  add(item: Item): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) this.flush();
    });
  }

  private flush(): void {
    const batch = this.waiting.splice(0, MAX_BATCH);
    this.writing = true;
    this.write(batch.map((entry) => entry.item)).then(
      () => this.finish(batch, undefined),
      (error: unknown) => this.finish(batch, error ?? new Error('batch write failed')),
    );
  }

  private finish(batch: Array<{ settle: (error?: unknown) => void }>, error: unknown): void {
    this.writing = false;
    for (const entry of batch) entry.settle(error);
    if (this.waiting.length > 0) this.flush();
  }
}
