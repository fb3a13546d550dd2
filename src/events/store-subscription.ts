/**
 * A subscription over a store (SQLite or PostgreSQL): pages through what is
 * stored after its cursor with its own filtered reads (the replay, or a
 * catch-up), then joins the store's SharedTail and is fed from the one read
 * per wake-up that all live subscribers share. `return()` and an abort
 * signal end it at once, even while a page is being read or it is parked,
 * which a plain async generator cannot do. A read that fails (the database
 * restarting) is tried again with growing pauses for up to OUTAGE_MS; only a
 * longer outage, or bad input, ends the subscription with the error.
 */
import { mayPass } from '../shared/retry.js';
import type { SharedTail, TailItem, TailMember } from './shared-tail.js';

export interface Page<T, C> {
  events: T[];
  /** everything up to here that the filter accepts is in `events` (or was in an earlier page) */
  cursor: C;
  /** a full page: read again before joining the tail */
  more: boolean;
}

export interface SubscriptionSource<T, C> {
  /** this subscriber's events after `cursor`, up to `until` when given (then a short page ends at `until`) */
  fetch(cursor: C, until: C | undefined): Page<T, C> | Promise<Page<T, C>>;
  /** whether an event the tail read (at `cursor`) is one of this subscriber's */
  accept(event: T, cursor: C): boolean;
  compare(a: C, b: C): number;
  tail: SharedTail<T, C>;
  isClosed(): boolean;
}

export interface Subscription<T> extends AsyncIterator<T> {
  close(): void;
}

/** a member whose consumer falls this far behind leaves the tail and reads on its own again (bounded memory) */
const MAX_BUFFERED = 2000;
/** how long a subscriber waits for a store that does not answer before it ends with the error */
export const OUTAGE_MS = 120_000;
const MAX_PAUSE_MS = 2_000;

export function createSubscription<T, C>(
  source: SubscriptionSource<T, C>,
  start: C | Promise<C>,
  signal?: AbortSignal,
  onClose?: () => void,
): Subscription<T> {
  let cursor: C | undefined;
  let buffer: T[] = [];
  let done = false;
  let joined = false;
  let failure: { err: unknown } | undefined;
  /** when reads started failing, and the next pause */
  let outage: { since: number; pauseMs: number } | undefined;
  let pending: (() => void) | undefined;
  // a close while a read is in flight ends next() at once; the read's answer is dropped
  let resolveClosed!: () => void;
  const closed = new Promise<undefined>((resolve) => (resolveClosed = () => resolve(undefined)));
  const startPromise = Promise.resolve(start);
  startPromise.catch(() => undefined);

  const wake = () => {
    const p = pending;
    pending = undefined;
    p?.();
  };
  const member: TailMember<T, C> = {
    get cursor() {
      return cursor!;
    },
    deliver(items: ReadonlyArray<TailItem<T, C>>, tailCursor: C) {
      const at = cursor!;
      for (const item of items)
        if (source.compare(item.cursor, at) > 0 && source.accept(item.event, item.cursor)) buffer.push(item.event);
      if (source.compare(tailCursor, at) > 0) cursor = tailCursor;
      if (buffer.length > MAX_BUFFERED) {
        joined = false;
        source.tail.leave(member);
      }
      wake();
    },
    fail(err) {
      joined = false;
      failure = { err };
      wake();
    },
  };
  const close = () => {
    if (done) return;
    done = true;
    if (joined) source.tail.leave(member);
    joined = false;
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
        if (failure) {
          // the shared read failed: read on our own, which retries or gives up below
          failure = undefined;
        }
        if (cursor === undefined) {
          const c = await Promise.race([startPromise, closed]);
          if (c === undefined) continue;
          cursor = c;
        }
        if (joined) {
          await new Promise<void>((resolve) => (pending = resolve));
          continue;
        }
        // on its own: up to the tail when the tail is ahead, else up to what is readable
        let page: Page<T, C> | undefined;
        try {
          page = await Promise.race([source.fetch(cursor, source.tail.aheadOf(cursor)), closed]);
          outage = undefined;
        } catch (err) {
          const now = performance.now();
          outage ??= { since: now, pauseMs: 50 };
          if (!mayPass(err) || now - outage.since > OUTAGE_MS) throw err;
          const pause = outage.pauseMs;
          outage.pauseMs = Math.min(MAX_PAUSE_MS, pause * 2);
          await Promise.race([new Promise((r) => setTimeout(r, pause * (0.5 + Math.random() / 2))), closed]);
          continue;
        }
        if (!page || done) continue;
        buffer = page.events;
        cursor = page.cursor;
        if (!page.more) joined = source.tail.join(member);
      }
    },
    async return(): Promise<IteratorResult<T>> {
      close();
      return { done: true, value: undefined };
    },
    close,
  };
}
