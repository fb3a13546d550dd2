/**
 * The embedded target: the default thing the arena attacks. It wraps one
 * embedded runtime and adapts it to the arena's provider interfaces.
 */
import type { Target, TargetFactory, TargetOptions } from '../../arena/providers.js';
import type { Clock } from '../../shared/clock.js';
import { createRandom, type Random } from '../../shared/random.js';
import { createRuntime, type AgentRuntime } from '../../runtime/runtime.js';
import { parseStrategy, mergeStrategy } from '../../runtime/strategy.js';
import type { Topology } from '../../runtime/topology.js';
import { createEmbeddedFaults, embeddedRefusal } from './faults.js';
import { createEmbeddedObserver } from './observer.js';
import { createCallLedger, type CallLedger } from '../../protocol/calls.js';
import { embeddedTrialTasks } from './tasks.js';

export interface EmbeddedTargetOptions extends TargetOptions {
  /** shown in reports (a target file's `name`); default `embedded` */
  name?: string;
  clock?: Clock;
  random?: Random;
  topology?: Partial<Topology>;
  /** workload runs per second; overrides the strategy's `workload.rate` */
  workloadRate?: number;
  /** false: no paced steady-state workload (trials submit their own runs); default on */
  workload?: boolean;
  /** trials: tool globs whose duplicate calls in one trial are defects (default none: the built-in tools only read) */
  sideEffects?: readonly string[];
}

const runtimes = new WeakMap<Target, AgentRuntime>();

export function createEmbeddedTarget(options: EmbeddedTargetOptions = {}): Target {
  let strategy = parseStrategy(options.strategy);
  if (options.workloadRate !== undefined)
    strategy = parseStrategy(mergeStrategy(strategy, { workload: { rate: options.workloadRate } }));
  if (options.workload === false) strategy = parseStrategy(mergeStrategy(strategy, { workload: { enabled: false } }));
  const random = options.random ?? createRandom(options.seed ?? 1);
  // the runtime's LLM attempts, as proxies record a process target's: trials read behaviour and cost here
  const ledger = createCallLedger();
  // the trial whose run is in flight: its agents' calls are its own (./tasks.ts)
  let trial: string | undefined;
  const calls: CallLedger = {
    record: (call) => ledger.record(trial !== undefined && call.trial === undefined ? { ...call, trial } : call),
    calls: (since) => ledger.calls(since),
  };
  const rt = createRuntime({
    calls,
    strategy,
    topology: options.topology,
    clock: options.clock,
    random: random.fork('runtime'),
  });
  const faults = createEmbeddedFaults(rt, random.fork('faults'));
  const name = options.name ?? 'embedded';
  const target: Target = {
    kind: 'embedded',
    name,
    runtime: faults.runtime,
    dag: faults.dag,
    observer: createEmbeddedObserver(rt, { llmInjections: faults.llmInjections }),
    async start() {
      const connected = () => Promise.all([...rt.cluster.agents.values()].map((a) => a.subsystems.ready));
      // the sessions built with the runtime connect before its heartbeats start: the first connection in
      // a process loads the MCP SDK, a stall (100–200 ms) that would otherwise read as a dead orchestrator
      await connected();
      rt.start();
      // every MCP session (a restarted runtime builds new ones) has its first connection before the arena looks
      await connected();
    },
    async stop() {
      await faults.runtime.revertAll();
      faults.dispose();
      await rt.stop();
    },
    unsupportedFaults: () => ({}),
    markers: () => rt.markers.travel(),
    refuses: embeddedRefusal,
    trials: embeddedTrialTasks(rt, {
      sideEffects: options.sideEffects,
      inFlight: (t) => {
        trial = t;
      },
    }),
    calls,
    describe: async () => ({
      name,
      kind: 'embedded',
      agents: rt.agents(),
      dag: { nodes: rt.dag.nodes(), edges: rt.dag.edges() },
      strategy: structuredClone(rt.strategy()) as unknown as Record<string, unknown>,
    }),
  };
  runtimes.set(target, rt);
  return target;
}

export const embeddedTargetFactory: TargetFactory = (options) => createEmbeddedTarget(options);

/** the runtime behind an embedded target (for bootstrap and server needs); undefined for other targets */
export function getEmbeddedRuntime(target: Target): AgentRuntime | undefined {
  return runtimes.get(target);
}
