/**
 * Records a run (scenario, survival) from its RunEvents: every `action` event
 * goes to the flight recorder, and the run's start/finish go to the `runs`
 * stream, so `arena flight` can show what recent runs did after they ended.
 */
import type { RunEvent } from '../arena/report.js';
import { ANY_VERSION, type EventStore } from '../arena/event-store.js';
import type { Clock } from '../shared/clock.js';
import { FlightRecorder } from './recorder.js';

export const RUNS_STREAM = 'runs';

export interface RunRecording {
  recorder: FlightRecorder;
  listener: (event: RunEvent) => void;
  /** resolves when everything seen so far is stored; rejects with the first store error */
  flush(): Promise<void>;
}

export function recordRunEvents(store: EventStore, options: { clock?: Clock; session?: string } = {}): RunRecording {
  const recorder = new FlightRecorder({ store, ...options });
  let chain: Promise<unknown> = Promise.resolve();
  let firstError: unknown;
  const enqueue = (work: () => Promise<unknown>) => {
    chain = chain.then(work).catch((err) => {
      firstError ??= err;
    });
  };
  const listener = (event: RunEvent) => {
    if (event.type === 'action')
      enqueue(() => recorder.record(event.result, { expectFailure: event.expect_failure === true }));
    else if (event.type === 'run.started' || event.type === 'run.finished') {
      enqueue(() =>
        store.append(RUNS_STREAM, [{ type: event.type, data: { session: recorder.session, ...event } }], ANY_VERSION),
      );
    }
  };
  return {
    recorder,
    listener,
    async flush() {
      await chain;
      if (firstError) throw firstError;
    },
  };
}

export interface RecordedRun {
  session: string;
  kind?: string;
  name?: string;
  seed?: number;
  started_at: string;
  finished_at?: string;
  status?: string;
}

/** runs recorded by recordRunEvents, oldest first (one per session) */
export async function listRecordedRuns(store: EventStore): Promise<RecordedRun[]> {
  const runs = new Map<string, RecordedRun>();
  for (const e of await store.read(RUNS_STREAM)) {
    const d = e.data as { session: string; kind?: string; name?: string; seed?: number; status?: string };
    if (e.type === 'run.started')
      runs.set(d.session, { session: d.session, kind: d.kind, name: d.name, seed: d.seed, started_at: e.at });
    else if (e.type === 'run.finished') {
      const r = runs.get(d.session) ?? { session: d.session, started_at: e.at };
      r.finished_at = e.at;
      r.status = d.status;
      runs.set(d.session, r);
    }
  }
  return [...runs.values()];
}
