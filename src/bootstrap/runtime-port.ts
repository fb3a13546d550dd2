/** The Runtime group's view of the target: start/stop, stats, one agent, the strategy. */
import { ConflictError, NotFoundError, RuntimeError } from '../shared/errors.js';
import type { Target } from '../arena/providers.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { RuntimePort } from './types.js';

/**
 * `busy()` names a run going on the target (a scenario, a survival run):
 * starting, stopping or re-configuring the runtime under it would make its
 * report meaningless, so those are refused with 409 while it lasts.
 */
export function createRuntimePort(
  target: Target,
  runtime: AgentRuntime | undefined,
  isRootRunning: () => boolean,
  busy: () => string | undefined = () => undefined,
): RuntimePort {
  let targetRunning = false;
  const refuseWhileBusy = (what: string) => {
    const run = busy();
    if (run)
      throw new ConflictError(`cannot ${what} while ${run} is going on it; stop the run first or wait for its end`, {
        code: 'arena_busy',
      });
  };
  const running = () => (runtime ? runtime.isRunning : targetRunning && isRootRunning());
  const port: RuntimePort & { markStarted(on: boolean): void } = {
    get isRunning() {
      return running();
    },
    markStarted(on: boolean) {
      targetRunning = on;
    },
    async start() {
      refuseWhileBusy('start the runtime');
      if (runtime) {
        if (!runtime.isRunning) runtime.start();
      } else if (!targetRunning) {
        await target.start();
        targetRunning = true;
      }
      return { running: running() };
    },
    async stop() {
      refuseWhileBusy('stop the runtime');
      // a stopped runtime never keeps faults: revert them first
      await target.runtime.revertAll();
      if (runtime) {
        if (runtime.isRunning) await runtime.stop();
      } else if (targetRunning) {
        await target.stop();
        targetRunning = false;
      }
      return { running: running() };
    },
    async stats() {
      const [agents, activeFaults] = await Promise.all([target.runtime.listAgents(), target.runtime.activeFaults()]);
      const base: Record<string, unknown> = {
        running: running(),
        target: target.name,
        agents,
        active_faults: activeFaults,
      };
      if (!runtime) return { ...base, workload: await target.observer.workload() };
      return {
        ...base,
        workload: runtime.stats(),
        leader_id: runtime.leaderId() ?? null,
        active_orchestrator_id: runtime.activeOrchestratorId() ?? null,
        dag: { nodes: runtime.dag.nodes(), edges: runtime.dag.edges(), damaged: runtime.dag.isDamaged() },
        recent_recovery_events: runtime.events().slice(-20),
      };
    },
    async agent(id) {
      const [agents, active] = await Promise.all([target.runtime.listAgents(), target.runtime.activeFaults()]);
      const info = agents.find((a) => a.id === id);
      if (!info)
        throw new NotFoundError(
          `agent "${id}" not found in the runtime (agents: ${agents.map((a) => a.id).join(', ')})`,
          { code: 'agent_not_found' },
        );
      const faults = active.filter((f) => f.target === id);
      const events = runtime
        ? runtime
            .events()
            .filter((e) => e.agent_id === id)
            .slice(-20)
        : [];
      return { ...info, active_faults: faults, recent_recovery_events: events };
    },
    async strategy() {
      return (await target.describe()).strategy;
    },
    updateStrategy(patch) {
      if (!runtime)
        throw new RuntimeError(`target "${target.name}" does not take strategy changes at run time`, {
          code: 'not_supported',
        });
      refuseWhileBusy('change the recovery strategy');
      return runtime.updateStrategy(patch) as unknown as Record<string, unknown>;
    },
    describe: () => target.describe(),
  };
  return port;
}
