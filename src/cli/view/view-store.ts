/**
 * Throttles redraws at the source: events are folded as they come, and a new
 * snapshot is published at most once per `intervalMs` (default 200 ms), so a
 * burst of events never slows the run.
 *
 * Finished lines (actions, recoveries, reverts) have their own, faster cadence
 * (`feedIntervalMs`): printing them above the live region writes strings and
 * repaints the last frame as it is, which costs next to nothing, while a
 * redraw of the live region is ink's whole pipeline. So lines appear within a
 * quarter of a second while the region is redrawn less often.
 */
import type { RunEvent } from '../../arena/report.js';
import type { TimerHandle } from '../../shared/clock.js';
import { ViewReducer, type FeedItem, type ViewState } from './view-state.js';

export interface ViewStore {
  push(event: RunEvent): void;
  /** a new snapshot was published: redraw the live region */
  subscribe(listener: () => void): () => void;
  getSnapshot(): ViewState;
  /** new finished lines were published: print them */
  subscribeFeed(listener: () => void): () => void;
  /** every finished line published so far, oldest first (append-only) */
  getFeed(): readonly FeedItem[];
  /** publish pending changes now (the end of a run) */
  flush(): void;
  /** how many snapshots were published: the number of redraws asked for */
  readonly publishes: number;
}

export interface ViewStoreOptions {
  intervalMs?: number;
  /** how often new finished lines are published; default the snapshot interval, at most 250 ms */
  feedIntervalMs?: number;
  setTimer?: (ms: number, fn: () => void) => TimerHandle;
}

type SetTimer = (ms: number, fn: () => void) => TimerHandle;

const defaultSetTimer: SetTimer = (ms, fn) => {
  const t = setTimeout(fn, ms);
  return { cancel: () => clearTimeout(t) };
};

/** calls `publish` at most once per `intervalMs` after `mark()`, or at once on `now()` */
function throttled(intervalMs: number, setTimer: SetTimer, publish: () => void) {
  let pending: TimerHandle | null = null;
  let isDirty = false;
  const now = () => {
    pending?.cancel();
    pending = null;
    if (!isDirty) return;
    isDirty = false;
    publish();
  };
  return {
    mark() {
      isDirty = true;
      pending ??= setTimer(intervalMs, now);
    },
    now,
  };
}

export function createViewStore(options: ViewStoreOptions = {}): ViewStore {
  const intervalMs = options.intervalMs ?? 200;
  const feedIntervalMs = options.feedIntervalMs ?? Math.min(intervalMs, 250);
  const setTimer = options.setTimer ?? defaultSetTimer;
  const reducer = new ViewReducer();
  const listeners = new Set<() => void>();
  const feedListeners = new Set<() => void>();
  let current = reducer.snapshot();
  let publishes = 0;
  let feedLength = 0;

  const frames = throttled(intervalMs, setTimer, () => {
    current = reducer.snapshot();
    publishes++;
    for (const l of listeners) l();
  });
  const feed = throttled(feedIntervalMs, setTimer, () => {
    for (const l of feedListeners) l();
  });
  const flush = () => {
    // lines first: they print above the region, which then redraws once for the same state
    feed.now();
    frames.now();
  };

  return {
    push(event) {
      reducer.apply(event);
      // the feed's timer armed first: when both are due together, lines print before the redraw
      const length = reducer.feed().length;
      if (length !== feedLength) {
        feedLength = length;
        feed.mark();
      }
      frames.mark();
      if (event.type === 'run.finished') flush();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => current,
    subscribeFeed(listener) {
      feedListeners.add(listener);
      return () => feedListeners.delete(listener);
    },
    getFeed: () => reducer.feed(),
    flush,
    get publishes() {
      return publishes;
    },
  };
}
