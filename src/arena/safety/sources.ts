/**
 * Where the stop conditions read from on a real run: the target's observer and call ledger, a plain
 * GET for URL probes, and Prometheus's instant-query API (GET /api/v1/query) for `prometheus:`.
 * Outbound calls go through the one HTTP client (shared/http-call.ts): a deadline on the whole call
 * and a cap on the answer.
 */
import type { CallLedgerReader } from '../../protocol/calls.js';
import { httpCall } from '../../shared/http-call.js';
import { UsageError } from '../../shared/errors.js';
import type { AgentInfo, TargetObserver } from '../providers.js';
import type { StopSources } from './checks.js';
import { stopWhenProblems } from './watch.js';
import type { StopCondition, StopWhen } from './types.js';

type PrometheusCondition = Extract<StopCondition, { kind: 'prometheus' }>;

export interface RunSourcesInput {
  observer: TargetObserver;
  calls?: CallLedgerReader | undefined;
  /** where `token_env` is read (the command's environment) */
  env?: Record<string, string | undefined> | undefined;
}

function runStopSources(input: RunSourcesInput): StopSources {
  const env = input.env ?? {};
  return {
    workload: () => input.observer.workload(),
    agentHealth: (id) => input.observer.health({ kind: 'agent', id }),
    probeUrl,
    prometheus: (c) => queryPrometheus(c, env),
    ...(input.calls ? { calls: input.calls } : {}),
  };
}

async function probeUrl(url: string, timeoutMs: number): Promise<string | undefined> {
  const answer = await httpCall({ url, timeoutMs, maxBytes: 64 * 1024, overflow: 'cut' });
  return answer.status >= 200 && answer.status < 400 ? undefined : `${url}: status ${answer.status}`;
}

/**
 * One instant query; the answer must be a single number: a scalar, or a vector of exactly one
 * sample (a query that matches nothing, or several series, cannot be compared with a threshold and
 * says so — aggregate it with sum(), max() …).
 */
export async function queryPrometheus(
  c: PrometheusCondition,
  env: Record<string, string | undefined>,
): Promise<number> {
  const url = new URL('api/v1/query', c.url.endsWith('/') ? c.url : `${c.url}/`);
  url.searchParams.set('query', c.query);
  const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
  if (c.tokenEnv !== undefined) {
    const token = env[c.tokenEnv];
    if (!token) throw new Error(`token_env ${c.tokenEnv} is not set`);
    headers.authorization = `Bearer ${token}`;
  }
  const answer = await httpCall({ url: url.toString(), headers, timeoutMs: c.timeoutMs });
  let body: { status?: string; error?: string; data?: { resultType?: string; result?: unknown } };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    throw new Error(`status ${answer.status}, not a Prometheus API answer`);
  }
  if (answer.status !== 200 || body.status !== 'success')
    throw new Error(`status ${answer.status}: ${body.error ?? 'the query failed'}`);
  const data = body.data ?? {};
  let raw: unknown;
  if (data.resultType === 'scalar') raw = (data.result as unknown[] | undefined)?.[1];
  else if (data.resultType === 'vector' && Array.isArray(data.result)) {
    const series = data.result as Array<{ value?: unknown[] }>;
    if (series.length !== 1)
      throw new Error(
        series.length === 0
          ? 'the query matched no series (no data to compare)'
          : `the query answered ${series.length} series; aggregate them to one (sum, max, …)`,
      );
    raw = series[0]!.value?.[1];
  } else throw new Error(`the query answered a ${data.resultType ?? 'missing'} result; expected a single number`);
  const value = Number(raw);
  if (typeof raw !== 'string' || Number.isNaN(value))
    throw new Error(`the query answered ${JSON.stringify(raw)}, not a number`);
  return value;
}

/**
 * The sources a run's conditions read, or a UsageError naming every condition this target cannot
 * evaluate (no call ledger for spend_above, an agent it does not have): refused before anything runs.
 */
export async function usableStopSources(
  stopWhen: StopWhen,
  run: RunSourcesInput & {
    runName: string;
    /** replaces the run's own sources (tests) */
    sources?: StopSources | undefined;
    agents: () => Promise<AgentInfo[]>;
  },
): Promise<StopSources> {
  const sources = run.sources ?? runStopSources(run);
  const problems = stopWhenProblems(stopWhen, sources);
  const named = stopWhen.conditions.flatMap((c) => (c.kind === 'probe_failures' && c.agent ? [c.agent] : []));
  if (named.length > 0) {
    const known = new Set((await run.agents().catch(() => [])).map((a) => a.id));
    for (const id of named)
      if (!known.has(id))
        problems.push(
          `stop_when probe_failures: the target has no agent "${id}" (agents: ${[...known].sort().join(', ') || 'none'})`,
        );
  }
  if (problems.length > 0)
    throw new UsageError(`${run.runName}: ${problems.join('; ')}`, {
      code: 'stop_condition_unusable',
      details: problems,
      hint: 'nothing was injected; remove the condition or give it a source this target has',
    });
  return sources;
}
