/**
 * One check per stop condition: what it measures each time it is asked, and whether that trips it.
 * Pure state machines over what their sources answer (workload counters, health, an HTTP probe, a
 * Prometheus query, the call ledger), so the window maths and the consecutive counts are testable
 * with an injected clock. A source that cannot answer is an `error` verdict: the watch decides what
 * `on_error` makes of it.
 */
import type { CallLedgerReader } from '../../protocol/calls.js';
import { errorMessage } from '../../shared/errors.js';
import type { HealthReport, WorkloadCounters } from '../providers.js';
import { MAX_CHECK_EVERY_MS, type StopCondition } from './stop-when.js';

export type Verdict =
  | { kind: 'ok'; value?: number }
  | { kind: 'trip'; value: number; reason: string }
  | { kind: 'error'; reason: string };

/** what the conditions read; each is optional, and a condition without its source is refused before the run */
export interface StopSources {
  /** cumulative workload counters (the target's observer) */
  workload?: () => Promise<WorkloadCounters>;
  /** the target's health verdict for one agent */
  agentHealth?: (agentId: string) => Promise<HealthReport>;
  /** GET a URL: passes on 2xx/3xx; resolves with why not, undefined when it passed */
  probeUrl?: (url: string, timeoutMs: number) => Promise<string | undefined>;
  /** one Prometheus instant query: the single number it answers, or a rejection saying why not */
  prometheus?: (c: Extract<StopCondition, { kind: 'prometheus' }>) => Promise<number>;
  /** the LLM calls the target's proxies saw */
  calls?: CallLedgerReader;
}

export interface Check {
  condition: StopCondition;
  /** ms between two runs of this check */
  everyMs: number;
  /**
   * Runs once; `armed` is false before the first fault lands: sampling still happens (a window
   * needs its past) but nothing trips and nothing is counted against the system yet.
   */
  run(now: number, armed: boolean): Promise<Verdict>;
}

export function createCheck(condition: StopCondition, sources: StopSources): Check {
  switch (condition.kind) {
    case 'availability_below':
      return availabilityCheck(condition, sources);
    case 'probe_failures':
      return probeCheck(condition, sources);
    case 'prometheus':
      return prometheusCheck(condition, sources);
    case 'spend_above':
      return spendCheck(condition, sources);
  }
}

/** Why a condition cannot be evaluated on this target (no source for it), or undefined when it can. */
export function missingSource(condition: StopCondition, sources: StopSources): string | undefined {
  switch (condition.kind) {
    case 'availability_below':
      return sources.workload ? undefined : 'the target measures no workload';
    case 'probe_failures':
      if (condition.agent !== undefined) return sources.agentHealth ? undefined : 'the target reports no agent health';
      return sources.probeUrl ? undefined : 'no way to probe a URL was given';
    case 'prometheus':
      return sources.prometheus ? undefined : 'no way to query Prometheus was given';
    case 'spend_above':
      return sources.calls
        ? undefined
        : 'this target has no LLM proxy whose calls the arena sees, so its spend cannot be measured';
  }
}

interface Sample {
  at: number;
  requests: number;
  succeeded: number;
}

/**
 * Availability over the last `window`: the difference of the cumulative counters between now and the
 * newest sample at least a window old (the oldest one while the run is younger than a window).
 */
export function availabilityCheck(
  c: Extract<StopCondition, { kind: 'availability_below' }>,
  sources: Pick<StopSources, 'workload'>,
): Check {
  let samples: Sample[] = [];
  return {
    condition: c,
    everyMs: MAX_CHECK_EVERY_MS,
    async run(now, armed) {
      let counters: WorkloadCounters;
      try {
        counters = await sources.workload!();
      } catch (err) {
        return { kind: 'error', reason: `workload counters unavailable: ${errorMessage(err)}` };
      }
      samples.push({ at: now, requests: counters.requests, succeeded: counters.succeeded });
      const from = now - c.windowMs;
      // keep one sample at or before the window's start, drop the older ones
      let base = 0;
      for (let i = 0; i < samples.length; i++) if (samples[i]!.at <= from) base = i;
      samples = samples.slice(base);
      const first = samples[0]!;
      const requests = counters.requests - first.requests;
      const succeeded = counters.succeeded - first.succeeded;
      if (requests < c.minRequests) return { kind: 'ok' };
      const availability = Math.round((succeeded / requests) * 1000) / 10;
      if (armed && availability < c.value)
        return {
          kind: 'trip',
          value: availability,
          reason: `availability ${availability}% over the last ${Math.round(now - first.at)}ms (${succeeded}/${requests} requests) is below ${c.value}%`,
        };
      return { kind: 'ok', value: availability };
    },
  };
}

/** N consecutive failed probes of an agent's health or of a URL; counting starts with the first fault */
export function probeCheck(
  c: Extract<StopCondition, { kind: 'probe_failures' }>,
  sources: Pick<StopSources, 'agentHealth' | 'probeUrl'>,
): Check {
  let failures = 0;
  let lastProblem = '';
  const probe = async (): Promise<string | undefined> => {
    if (c.agent !== undefined) {
      const health = await sources.agentHealth!(c.agent);
      return health.healthy ? undefined : health.problems.join('; ') || `${c.agent} is unhealthy`;
    }
    return sources.probeUrl!(c.url!, c.timeoutMs);
  };
  return {
    condition: c,
    everyMs: c.everyMs,
    async run(_now, armed) {
      if (!armed) {
        failures = 0;
        return { kind: 'ok' };
      }
      let problem: string | undefined;
      try {
        problem = await probe();
      } catch (err) {
        // a probe that cannot be made is a failed probe: that is what a probe measures
        problem = errorMessage(err);
      }
      if (problem === undefined) failures = 0;
      else {
        failures += 1;
        lastProblem = problem;
      }
      if (failures >= c.count)
        return {
          kind: 'trip',
          value: failures,
          reason: `${c.agent ?? c.url} failed ${failures} probe(s) in a row (last: ${lastProblem})`,
        };
      return { kind: 'ok', value: failures };
    },
  };
}

export function prometheusCheck(
  c: Extract<StopCondition, { kind: 'prometheus' }>,
  sources: Pick<StopSources, 'prometheus'>,
): Check {
  return {
    condition: c,
    everyMs: c.everyMs,
    async run(_now, armed) {
      if (!armed) return { kind: 'ok' };
      let value: number;
      try {
        value = await sources.prometheus!(c);
      } catch (err) {
        return { kind: 'error', reason: `prometheus query ${c.query} at ${c.url}: ${errorMessage(err)}` };
      }
      const crossed = c.above !== undefined ? value > c.above : value < c.below!;
      if (crossed)
        return {
          kind: 'trip',
          value,
          reason: `${c.query} = ${value}, ${c.above !== undefined ? `above ${c.above}` : `below ${c.below}`}`,
        };
      return { kind: 'ok', value };
    },
  };
}

/** tokens (or dollars, at the given price) of every LLM call the proxies saw since the check was made */
export function spendCheck(
  c: Extract<StopCondition, { kind: 'spend_above' }>,
  sources: Pick<StopSources, 'calls'>,
): Check {
  const ledger = sources.calls!;
  let since = ledger.calls().next;
  const spent = { input: 0, output: 0 };
  let missed = 0;
  return {
    condition: c,
    everyMs: MAX_CHECK_EVERY_MS,
    async run() {
      const read = ledger.calls(since);
      since = read.next;
      missed += read.dropped;
      for (const r of read.records) {
        if (r.kind !== 'llm' || !r.tokens) continue;
        spent.input += r.tokens.input;
        spent.output += r.tokens.output;
      }
      const value =
        c.tokens !== undefined
          ? spent.input + spent.output
          : Math.round(((spent.input * c.price!.input + spent.output * c.price!.output) / 1e6) * 1e6) / 1e6;
      const cap = c.tokens ?? c.usd!;
      // calls the ledger evicted before they were read were spent too: the total is a lower bound then
      const lowerBound = missed > 0 ? ` (at least: ${missed} call(s) were evicted from the ledger unread)` : '';
      if (value > cap)
        return {
          kind: 'trip',
          value,
          reason: `${c.tokens !== undefined ? `${value} tokens` : `$${value}`} spent through the LLM proxy${lowerBound}, above ${c.tokens !== undefined ? cap : `$${cap}`}`,
        };
      return { kind: 'ok', value };
    },
  };
}
