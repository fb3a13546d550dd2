/**
 * Throttles redraws at the source: events are folded as they come, and a new
 * snapshot is published at most once per `intervalMs` (default 200 ms, ≤ 5
 * redraws a second; each ink redraw costs ~10 ms of CPU), so a burst of events never slows the run.
 */
import type { RunEvent } from '../../arena/report.js';
import type { TimerHandle } from '../../shared/clock.js';
import { ViewReducer, type ViewState } from './view-state.js';

export interface ViewStore {
  push(event: RunEvent): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): ViewState;
  /** publish pending changes now (the end of a run) */
  flush(): void;
  /** how many snapshots were published: the number of redraws asked for */
  readonly publishes: number;
}

export interface ViewStoreOptions {
  intervalMs?: number;
  setTimer?: (ms: number, fn: () => void) => TimerHandle;
}

export function createViewStore(options: ViewStoreOptions = {}): ViewStore {
  const intervalMs = options.intervalMs ?? 200;
  const setTimer =
    options.setTimer ??
    ((ms: number, fn: () => void) => {
      const t = setTimeout(fn, ms);
      return { cancel: () => clearTimeout(t) };
    });
  const reducer = new ViewReducer();
  const listeners = new Set<() => void>();
  let current = reducer.snapshot();
  let pending: TimerHandle | null = null;
  let isDirty = false;
  let publishes = 0;

  const publish = () => {
    pending?.cancel();
    pending = null;
    if (!isDirty) return;
    isDirty = false;
    current = reducer.snapshot();
    publishes++;
    for (const l of listeners) l();
  };

  return {
    push(event) {
      reducer.apply(event);
      isDirty = true;
      if (event.type === 'run.finished') return publish();
      pending ??= setTimer(intervalMs, publish);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => current,
    flush: publish,
    get publishes() {
      return publishes;
    },
  };
}
