/**
 * A job a command runs in its own process (`arena trials --store …`, `arena shrink --store …`) and an
 * `arena serve` on the same event store shows in its web console: an index stream names the jobs
 * (one event per job), and a stream per job carries its events in order, with a heartbeat while it
 * runs so a killed job is shown abandoned rather than running for ever. What each job's events
 * mean is its command's (trials-progress.ts, shrink-progress.ts).
 */
import { randomUUID } from 'node:crypto';
import { ANY_VERSION, type EventStore } from '../arena/event-store.js';
import { ABANDONED_AFTER_MS, HEARTBEAT_MS } from './regress-progress.js';

export interface JobStreams {
  /** the index stream, e.g. `trials` */
  index: string;
  /** the job's own stream is this prefix plus its id, e.g. `trials:` */
  prefix: string;
  /** the event type of the index entry and the heartbeat: `<kind>.job`, `<kind>.heartbeat` */
  kind: string;
}

export interface JobLog {
  readonly id: string;
  /** appends to the job's stream, in order, in the background */
  record(type: string, data: unknown): void;
  /** indexes the job and starts its heartbeat */
  begin(): void;
  /** stops the heartbeat (the job's last event says how it ended) */
  end(): void;
  /** resolves when everything recorded so far is written (or failed to be) */
  flush(): Promise<void>;
}

/** recording progress never slows or fails the job itself: appends are chained and their errors dropped */
export function createJobLog(
  store: Pick<EventStore, 'append'>,
  streams: JobStreams,
  options: { id?: string; heartbeatMs?: number } = {},
): JobLog {
  const id = options.id ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
  let chain: Promise<unknown> = Promise.resolve();
  const append = (streamId: string, type: string, data: unknown) => {
    chain = chain.then(() => store.append(streamId, [{ type, data }], ANY_VERSION)).catch(() => undefined);
  };
  let heartbeat: NodeJS.Timeout | undefined;
  const end = () => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
  };
  return {
    id,
    record: (type, data) => append(streams.prefix + id, type, data),
    begin() {
      end();
      append(streams.index, `${streams.kind}.job`, { id });
      heartbeat = setInterval(
        () => append(streams.prefix + id, `${streams.kind}.heartbeat`, {}),
        options.heartbeatMs ?? HEARTBEAT_MS,
      );
      heartbeat.unref();
    },
    end,
    flush: async () => {
      await chain;
    },
  };
}

export interface JobEvent {
  type: string;
  data: unknown;
  at: string;
}

/** the `limit` most recently indexed jobs, newest first, each with its stream's events */
export async function readJobStreams(
  store: EventStore,
  streams: Pick<JobStreams, 'index' | 'prefix'>,
  limit: number,
): Promise<Array<{ id: string; events: JobEvent[] }>> {
  const index = await store.read(streams.index);
  const ids = [...new Set(index.map((e) => String((e.data as { id?: unknown }).id)))].reverse().slice(0, limit);
  const jobs: Array<{ id: string; events: JobEvent[] }> = [];
  for (const id of ids) jobs.push({ id, events: await store.read(streams.prefix + id) });
  return jobs;
}

/** a job with no last word and no heartbeat for a while: its process is gone, no last word will come */
export function isSilent(events: readonly JobEvent[], now: number): boolean {
  const heard = events.reduce((latest, e) => Math.max(latest, Date.parse(e.at)), 0);
  return now - heard > ABANDONED_AFTER_MS;
}
