/**
 * A push-to-pull bridge: producers push values, one consumer iterates them.
 * Used for live subscriptions (event store, arena service).
 */
export interface AsyncQueue<T> extends AsyncIterable<T> {
  push(value: T): void;
  close(): void;
  readonly closed: boolean;
}

export function createAsyncQueue<T>(onClose?: () => void, signal?: AbortSignal): AsyncQueue<T> {
  const buffer: T[] = [];
  let waiting: ((r: IteratorResult<T>) => void) | undefined;
  let closed = false;

  const close = () => {
    if (closed) return;
    closed = true;
    signal?.removeEventListener('abort', close);
    onClose?.();
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w({ value: undefined, done: true });
    }
  };
  if (signal?.aborted) queueMicrotask(close);
  else signal?.addEventListener('abort', close, { once: true });

  // one executor for every wait, not a closure per value
  const wait = (resolve: (r: IteratorResult<T>) => void): void => {
    waiting = resolve;
  };
  const iterator: AsyncIterator<T> = {
    next() {
      if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false });
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise(wait);
    },
    return() {
      close();
      buffer.length = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
  };

  return {
    push(value) {
      if (closed) return;
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w({ value, done: false });
      } else buffer.push(value);
    },
    close,
    get closed() {
      return closed;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
}
