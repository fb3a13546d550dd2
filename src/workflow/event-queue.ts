/**
 * A push→pull bridge: the engine pushes events as they happen, a consumer
 * pulls them with `for await`. Unbounded on purpose: a workflow emits a small,
 * finite number of events (a few per step).
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void };
  private ended = false;
  private failure?: { error: unknown };

  constructor(private readonly onReturn?: () => void) {}

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w.resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) this.failure = { error };
    const w = this.waiting;
    this.waiting = undefined;
    if (w) {
      if (this.failure) w.reject(this.failure.error);
      else w.resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) {
          if (this.failure) {
            const { error } = this.failure;
            this.failure = undefined;
            return Promise.reject(error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
      return: () => {
        // the consumer stopped early (break / abort): let the producer stop too
        if (!this.ended) this.onReturn?.();
        this.end();
        this.items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
