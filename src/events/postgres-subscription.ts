/**
 * A subscription over the PostgreSQL store: pages through what is readable
 * after its cursor, then parks until woken (a NOTIFY from any server on the
 * database, a poll, or close). Like the SQLite one, `return()` and an abort
 * signal end it at once, even while a page is being fetched or it is parked.
 */
export interface Page<T, C> {
  events: T[];
  cursor: C;
}

export interface AsyncSource<T, C> {
  fetch(cursor: C): Promise<Page<T, C>>;
  onWake(wake: () => void): () => void;
  isClosed(): boolean;
}

export interface AsyncSubscription<T> extends AsyncIterator<T> {
  close(): void;
}

export function createAsyncSubscription<T, C>(source: AsyncSource<T, C>, start: Promise<C>, signal?: AbortSignal, onClose?: () => void): AsyncSubscription<T> {
  let cursor: C | undefined;
  let buffer: T[] = [];
  let done = false;
  let dirty = true;
  let pending: (() => void) | undefined;
  // a close while a query is in flight ends next() at once; the query's answer is dropped
  let resolveClosed!: () => void;
  const closed = new Promise<undefined>((resolve) => (resolveClosed = () => resolve(undefined)));

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
    resolveClosed();
    onClose?.();
  };
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close, { once: true });

  return {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (done || source.isClosed()) {
          close();
          return { done: true, value: undefined };
        }
        if (buffer.length > 0) return { done: false, value: buffer.shift()! };
        if (cursor === undefined) {
          const c = await Promise.race([start, closed]);
          if (c === undefined) continue;
          cursor = c;
        }
        if (dirty) {
          dirty = false;
          const page = await Promise.race([source.fetch(cursor), closed]);
          if (!page) continue;
          buffer = page.events;
          cursor = page.cursor;
          // a non-empty page may not be the last: look again before parking
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
  };
}
