/**
 * A pull-based subscription over a store: pages through what is already
 * stored, then parks until woken (a local append, a poll that saw another
 * process write, or close). `return()` and an abort signal end it at once,
 * even while it is parked, which a plain async generator cannot do.
 */
export interface Subscription<T> extends AsyncIterator<T> {
  close(): void;
  onClose(fn: () => void): void;
}

export function createSubscription<T extends { position: number }>(
  source: { fetch(after: number): T[]; onWake(wake: () => void): () => void; isClosed(): boolean },
  startAfter: number,
  signal?: AbortSignal,
): Subscription<T> {
  let cursor = startAfter;
  let buffer: T[] = [];
  let done = false;
  let pending: (() => void) | undefined;
  let dirty = true;
  const closeHandlers: Array<() => void> = [];

  const wake = () => {
    dirty = true;
    const p = pending;
    pending = undefined;
    p?.();
  };
  const unregister = source.onWake(wake);
  const close = () => {
    if (done) return;
    done = true;
    unregister();
    signal?.removeEventListener('abort', close);
    wake();
    for (const fn of closeHandlers) fn();
  };
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close, { once: true });

  const sub: Subscription<T> = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (done || source.isClosed()) {
          close();
          return { done: true, value: undefined };
        }
        if (buffer.length > 0) {
          const value = buffer.shift()!;
          cursor = value.position;
          return { done: false, value };
        }
        if (dirty) {
          dirty = false;
          buffer = source.fetch(cursor);
          // a full page means there may be more: look again before parking
          if (buffer.length > 0) dirty = true;
          continue;
        }
        await new Promise<void>((resolve) => (pending = resolve));
      }
    },
    async return(): Promise<IteratorResult<T>> {
      close();
      return { done: true, value: undefined };
    },
    close,
    onClose(fn) {
      closeHandlers.push(fn);
    },
  };
  return sub;
}
