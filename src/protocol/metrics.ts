/**
 * The Prometheus metrics of DESIGN §17, on a registry of their own (never
 * prom-client's global one, so two servers or two tests never share counts).
 * prom-client is loaded here and only here, by `loadArenaMetrics`: a command
 * that serves no metrics never loads it. Plain values in, so the server, the
 * target protocol and the fault proxies all feed the same names.
 */
import type * as Prom from 'prom-client';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallLedgerReader } from './calls.js';
import type { ProtocolRoute } from './http.js';
import type { WireActiveFault } from './wire.js';

export type PromClient = typeof Prom;

export const SCORE_DIMENSIONS = ['score', 'availability', 'recovery', 'consistency'] as const;
export type ScoreDimension = (typeof SCORE_DIMENSIONS)[number];

/** recovery times from 50 ms to 60 s: roughly ×2 steps, so p50/p95 stay readable at either end */
export const RECOVERY_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60];

export interface ArenaMetrics {
  readonly contentType: string;
  /** a fault the arena executed or a target applied: `applied` or `refused` */
  fault(type: string, target: string, outcome: 'applied' | 'refused'): void;
  /** the faults active now (replaces the previous figures) */
  activeFaults(faults: ReadonlyArray<{ kind: string; target: string }>): void;
  recovery(type: string, seconds: number): void;
  score(values: Partial<Record<ScoreDimension, number | null>>): void;
  /** the target's workload counters as totals (counters only go up; a smaller total means the target restarted) */
  workload(counts: { succeeded: number; failed: number }): void;
  run(kind: 'scenario' | 'survival', verdict: string): void;
  /** a proxy's requests so far by fault ("none": passed through), as totals from its stats */
  proxyRequests(proxy: string, totals: Readonly<Record<string, number>>): void;
  tokens(direction: 'input' | 'output', model: string, count: number): void;
  /** runs before each exposition: pulls figures that are read rather than pushed */
  beforeCollect(hook: () => Promise<void> | void): void;
  /** the exposition text (runs the hooks first) */
  text(): Promise<string>;
}

export async function loadArenaMetrics(): Promise<ArenaMetrics> {
  return createArenaMetrics(await import('prom-client'));
}

export function createArenaMetrics(prom: PromClient): ArenaMetrics {
  const registers = [new prom.Registry()];
  const registry = registers[0]!;
  const injected = new prom.Counter({
    name: 'arena_faults_injected_total',
    help: 'Faults the arena executed, by type, target and outcome (applied or refused).',
    labelNames: ['type', 'target', 'outcome'] as const,
    registers,
  });
  const active = new prom.Gauge({
    name: 'arena_faults_active',
    help: 'Faults active on the target now.',
    labelNames: ['type', 'target'] as const,
    registers,
  });
  const recovery = new prom.Histogram({
    name: 'arena_fault_recovery_seconds',
    help: 'Time from a disruptive fault to the target being healthy again.',
    labelNames: ['type'] as const,
    buckets: RECOVERY_BUCKETS_SECONDS,
    registers,
  });
  const score = new prom.Gauge({
    name: 'arena_score',
    help: 'The measured resilience score and its dimensions, 0-100.',
    labelNames: ['dimension'] as const,
    registers,
  });
  const workload = new prom.Counter({
    name: 'arena_workload_requests_total',
    help: "Requests of the target's workload, by outcome.",
    labelNames: ['outcome'] as const,
    registers,
  });
  const runs = new prom.Counter({
    name: 'arena_runs_total',
    help: 'Scenario and survival runs, by verdict.',
    labelNames: ['kind', 'verdict'] as const,
    registers,
  });
  const proxy = new prom.Counter({
    name: 'arena_proxy_requests_total',
    help: 'Requests through a fault proxy, by the fault applied ("none" when passed through).',
    labelNames: ['proxy', 'fault'] as const,
    registers,
  });
  const tokens = new prom.Counter({
    name: 'arena_llm_tokens_total',
    help: 'LLM tokens through the LLM proxy, by direction and model.',
    labelNames: ['direction', 'model'] as const,
    registers,
  });
  const hooks: Array<() => Promise<void> | void> = [];
  const seenWorkload = { succeeded: 0, failed: 0 };
  const seenProxy = new Map<string, number>();

  return {
    contentType: registry.contentType,
    fault(type, target, outcome) {
      injected.inc({ type, target, outcome });
    },
    activeFaults(faults) {
      active.reset();
      for (const f of faults) active.inc({ type: f.kind, target: f.target });
    },
    recovery(type, seconds) {
      recovery.observe({ type }, seconds);
    },
    score(values) {
      for (const dimension of SCORE_DIMENSIONS) {
        const v = values[dimension];
        // unknown (nothing measured yet) is no sample, not 0
        if (typeof v === 'number') score.set({ dimension }, v);
        else score.remove({ dimension });
      }
    },
    workload(counts) {
      for (const outcome of ['succeeded', 'failed'] as const) {
        const total = counts[outcome];
        const delta = total >= seenWorkload[outcome] ? total - seenWorkload[outcome] : total;
        workload.inc({ outcome }, delta); // 0 still exposes the series
        seenWorkload[outcome] = total;
      }
    },
    run(kind, verdict) {
      runs.inc({ kind, verdict });
    },
    proxyRequests(proxyName, totals) {
      for (const [fault, total] of Object.entries(totals)) {
        const key = `${proxyName}\u0000${fault}`;
        const seen = seenProxy.get(key) ?? 0;
        proxy.inc({ proxy: proxyName, fault }, total >= seen ? total - seen : total);
        seenProxy.set(key, total);
      }
    },
    tokens(direction, model, count) {
      if (count > 0) tokens.inc({ direction, model }, count);
    },
    beforeCollect(hook) {
      hooks.push(hook);
    },
    async text() {
      for (const hook of hooks) await hook();
      return registry.metrics();
    },
  };
}

/**
 * Feeds `arena_llm_tokens_total` from a call ledger (what the LLM proxies saw): at each call, the
 * tokens of the LLM answers recorded since the last one, by the model the answer named ("unknown"
 * when none did). Read from the ledger's start, so what was recorded before the first scrape counts;
 * records the ledger's bound evicted before they were read are missed (it keeps the last 10,000).
 */
export function countLedgerTokens(m: Pick<ArenaMetrics, 'tokens'>, ledger: CallLedgerReader): () => void {
  let since = 0;
  return () => {
    const page = ledger.calls(since);
    for (const call of page.records) {
      if (call.kind !== 'llm' || !call.tokens) continue;
      const model = call.model ?? 'unknown';
      m.tokens('input', model, call.tokens.input);
      m.tokens('output', model, call.tokens.output);
    }
    since = Math.max(since, page.next);
  };
}

/** answers a scrape: the exposition text with its content type (HEAD: the headers only) */
export async function sendMetrics(metrics: ArenaMetrics, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await metrics.text();
  res.writeHead(200, {
    'content-type': metrics.contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * GET /metrics for a fault proxy's control port: its requests by fault and its active faults, read
 * from its stats at each scrape (totals, so loading prom-client at the first scrape misses nothing).
 */
export function proxyMetricsRoute(
  proxy: string,
  activeFaults: () => readonly WireActiveFault[],
  requests: () => Readonly<Record<string, number>>,
  /** the LLM proxy's ledger: its answers' tokens as `arena_llm_tokens_total` */
  calls?: CallLedgerReader,
): ProtocolRoute {
  let metrics: Promise<ArenaMetrics> | undefined;
  const ready = () =>
    (metrics ??= loadArenaMetrics().then((m) => {
      const tokens = calls && countLedgerTokens(m, calls);
      m.beforeCollect(() => {
        m.activeFaults(activeFaults().map((f) => ({ kind: f.type, target: f.target_id ?? proxy })));
        m.proxyRequests(proxy, requests());
        tokens?.();
      });
      return m;
    }));
  return { method: 'GET', path: '/metrics', handle: async (req, res) => sendMetrics(await ready(), req, res) };
}
