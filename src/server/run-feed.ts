/**
 * `--serve [PORT]` on the run commands: while a scenario or survival run goes
 * on, its events are served as the arena stream (GET /arena/stream, same
 * framing, ids and Last-Event-ID resume as `arena serve`), plus the latest
 * snapshot at GET /arena/run, and the run's Prometheus metrics at GET /metrics
 * (prom-client loads when the feed starts): from its events, and from its target
 * the LLM tokens and workload counters. Loopback only; ARENA_API_KEY is honoured
 * (X-API-Key or Authorization: Bearer, as Prometheus sends it).
 */
import { ANY_VERSION } from '../arena/event-store.js';
import type { RunEvent } from '../arena/report.js';
import { MemoryEventStore } from '../events/memory.js';
import { serveArenaStream } from './arena-stream.js';
import { listen } from './listen.js';
import { Router } from './router.js';
import { UsageError } from '../shared/errors.js';
import type { Logger } from '../shared/http/respond.js';
import { loadArenaMetrics } from '../protocol/metrics.js';
import { registerMetricsRoute } from './metrics/route.js';
import { countRunEvents } from './metrics/run-events.js';
import { countRunTargets } from './metrics/run-targets.js';
import type { Target } from '../arena/providers.js';

export interface RunFeed {
  url: string;
  port: number;
  isAuthEnabled: boolean;
  listener(event: RunEvent): void;
  /** an event that is not a run's (`shrink.progress`, …): appended to the stream in order with the run events */
  publish(name: string, data: Record<string, unknown>): void;
  /** the run built this target (one per scenario): its LLM tokens and workload counters are served from now on */
  watchTarget(target: Pick<Target, 'observer' | 'calls'>): void;
  close(): Promise<void>;
}

function eventName(event: RunEvent): string {
  if (event.type === 'action') return event.result.success ? 'arena.action.executed' : 'arena.action.failed';
  return event.type.startsWith('run.') ? event.type : `run.${event.type}`;
}

export async function startRunFeed(options: {
  port: number;
  apiKey?: string;
  log?: Logger;
  heartbeatMs?: number;
}): Promise<RunFeed> {
  const store = new MemoryEventStore();
  const router = new Router({
    ...(options.log ? { log: options.log } : {}),
    sse: { heartbeatMs: options.heartbeatMs ?? 15_000 },
  }).withApiKey(options.apiKey);
  let latest: {
    status: string;
    snapshot?: RunEvent;
    started?: RunEvent;
    finished?: RunEvent;
    /** the latest published event of each name (a shrink's progress, say) */
    published?: Record<string, Record<string, unknown>>;
  } = { status: 'running' };
  for (const prefix of ['/arena', '/api/v1/arena']) {
    router.get(`${prefix}/stream`, (ctx) => serveArenaStream(ctx, store, 'arena'));
    router.get(`${prefix}/run`, () => latest);
  }
  const metrics = loadArenaMetrics();
  metrics.catch(() => undefined); // a failed load is the scrape's 500, not an unhandled rejection
  // counted in the order the events came: each waits on the same loaded module
  const counted = metrics.then(countRunEvents);
  counted.catch(() => undefined);
  const targets = metrics.then((m) => {
    const t = countRunTargets(m);
    m.beforeCollect(() => t.collect());
    return t;
  });
  targets.catch(() => undefined);
  registerMetricsRoute(router, () => metrics);
  const handle = await listen(router, { host: '127.0.0.1', port: options.port }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    throw new UsageError(`port ${options.port} on 127.0.0.1 is already in use`, {
      code: 'port_in_use',
      hint: 'pick another with --serve PORT, or --serve 0 for a free one',
    });
  });
  let appends: Promise<unknown> = Promise.resolve();
  const append = (type: string, data: unknown) => {
    // appended in order; a failed append is not worth stopping a run for
    appends = appends.then(() => store.append('arena', [{ type, data }], ANY_VERSION)).catch(() => undefined);
  };
  return {
    url: handle.url,
    port: handle.port,
    isAuthEnabled: router.isAuthEnabled,
    listener(event) {
      void counted.then((count) => count(event)).catch(() => undefined);
      if (event.type === 'snapshot') latest = { ...latest, snapshot: event };
      else if (event.type === 'run.started') latest = { ...latest, started: event };
      else if (event.type === 'run.finished') latest = { ...latest, status: event.status, finished: event };
      append(eventName(event), event);
    },
    publish(name, data) {
      latest = { ...latest, published: { ...latest.published, [name]: data } };
      append(name, data);
    },
    watchTarget(target) {
      void targets.then((t) => t.watch(target)).catch(() => undefined);
    },
    async close() {
      await appends;
      await handle.close('the run is over');
    },
  };
}
