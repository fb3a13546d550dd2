/**
 * The one keep-alive mechanism. The clock's timers are unref'd so that a
 * library user's process can exit; whatever is awaited on top of them (a run,
 * a stop sequence that waits on those timers) must hold the event loop open
 * itself, or node exits 0 in the middle of it.
 */

/** one ref'd timer that does nothing: enough to hold the event loop open */
const HOLD_MS = 60_000;

/** runs `work` with the process held open, and lets go however it ends */
export async function keepAliveWhile<T>(work: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, HOLD_MS);
  try {
    return await work();
  } finally {
    clearInterval(hold);
  }
}
