/**
 * Every workload request sent is counted once (DESIGN §5). A target that sends
 * its own workload keeps a tally: each request is started and ended once, and a
 * measurement window counts the requests *sent* while it was open, however long
 * they take. Closing the window stops admitting new requests and waits for the
 * ones still in flight to end (each ends by its own timeout, as a failure), so a
 * request that hangs through an outage is a failure, not a request never seen.
 */

export interface WorkloadWindowCounts {
  /** requests sent while the window was open */
  sent: number;
  succeeded: number;
  failed: number;
  /** sent and not ended yet */
  pending: number;
}

export interface WorkloadWindow {
  /** what the window has seen so far */
  counts(): WorkloadWindowCounts;
  /**
   * Admits no more requests and resolves once every request it admitted has
   * ended, or at once when `signal` aborts (the rest stay `pending`).
   */
  close(signal?: AbortSignal): Promise<WorkloadWindowCounts>;
}

export interface WorkloadTally {
  /** one request sent; call the returned function once when it ends */
  started(): (ok: boolean) => void;
  /** a window from now on */
  open(): WorkloadWindow;
}

interface OpenWindow {
  counts: WorkloadWindowCounts;
  isAdmitting: boolean;
  drained?: () => void;
}

export function createWorkloadTally(): WorkloadTally {
  const open = new Set<OpenWindow>();
  return {
    started() {
      const windows = [...open].filter((w) => w.isAdmitting);
      for (const w of windows) {
        w.counts.sent++;
        w.counts.pending++;
      }
      let isEnded = false;
      return (ok) => {
        if (isEnded) return;
        isEnded = true;
        for (const w of windows) {
          w.counts.pending--;
          if (ok) w.counts.succeeded++;
          else w.counts.failed++;
          if (w.counts.pending === 0) w.drained?.();
        }
      };
    },
    open() {
      const w: OpenWindow = { counts: { sent: 0, succeeded: 0, failed: 0, pending: 0 }, isAdmitting: true };
      open.add(w);
      return {
        counts: () => ({ ...w.counts }),
        async close(signal) {
          w.isAdmitting = false;
          if (w.counts.pending > 0 && !signal?.aborted) {
            await new Promise<void>((resolve) => {
              const done = () => {
                signal?.removeEventListener('abort', done);
                w.drained = undefined;
                resolve();
              };
              w.drained = done;
              signal?.addEventListener('abort', done, { once: true });
            });
          }
          open.delete(w);
          return { ...w.counts };
        },
      };
    },
  };
}
