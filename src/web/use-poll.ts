/**
 * Polls a function on an interval while the page is mounted; `refresh()`
 * asks for an update now (e.g. when an event arrives). A slow answer never
 * overlaps the next call.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Poll<T> {
  data: T | undefined;
  error: unknown;
  /** Date.now() when data arrived */
  at: number;
  refresh(): void;
}

export function usePoll<T>(fn: () => Promise<T>, intervalMs: number): Poll<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; at: number }>({
    data: undefined,
    error: undefined,
    at: 0,
  });
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const busy = useRef(false);
  const again = useRef(false);

  const run = useCallback(async () => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    try {
      const data = await fnRef.current();
      setState({ data, error: undefined, at: Date.now() });
    } catch (error) {
      setState((s) => ({ ...s, error }));
    } finally {
      busy.current = false;
      if (again.current) {
        again.current = false;
        void run();
      }
    }
  }, []);

  useEffect(() => {
    void run();
    const timer = setInterval(() => void run(), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, run]);

  return { ...state, refresh: () => void run() };
}
