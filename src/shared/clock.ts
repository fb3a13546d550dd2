/**
 * Time is injected so that scheduling, survival and scoring are testable and
 * replayable. `systemClock` is the real one; tests may pass their own.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** milliseconds since an arbitrary epoch; monotonic for the system clock */
  now(): number;
  /** wall-clock time for reports (ISO strings) */
  wallNow(): Date;
  /** resolves after `ms`; rejects with the signal's reason when aborted */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** runs `fn` after `ms`; the timer never keeps the process alive */
  setTimer(ms: number, fn: () => void): TimerHandle;
}

/** Node's timers hold a signed 32-bit millisecond count; more than this fires after 1 ms */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one check every timer passes: a value Node would misread (NaN, Infinity,
 * over 2^31−1 ms) is a bug upstream, so it throws instead of firing at once.
 * Negative delays are "already due" (a deadline in the past) and run at 0.
 */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms) || ms > MAX_TIMER_MS) {
    throw new RangeError(
      `refusing to arm a timer for ${ms} ms: the limit is ${MAX_TIMER_MS} ms (validate durations before scheduling)`,
    );
  }
  return Math.max(0, ms);
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => new Date(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      const delay = timerDelay(ms);
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  setTimer(ms, fn) {
    const t = setTimeout(fn, timerDelay(ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/**
 * A manual clock for unit tests: time moves only through `advance`, which
 * fires due timers in order and lets awaiting promises settle between them.
 */
export class ManualClock implements Clock {
  private current = 0;
  private seq = 0;
  private timers: Array<{ at: number; seq: number; fn: () => void }> = [];

  constructor(private readonly epoch = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.current;
  }

  wallNow(): Date {
    return new Date(this.epoch + this.current);
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const entry = { at: this.current + timerDelay(ms), seq: this.seq++, fn };
    this.timers.push(entry);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== entry)) };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const handle = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        handle.cancel();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** moves time forward by `ms`, firing every timer that falls due */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
    await flushMicrotasks();
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
