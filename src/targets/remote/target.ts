/**
 * `kind: remote`: any runtime that speaks the Arena Target Protocol v1
 * (DESIGN §9.2). Each fault is a POST with an id of our own and a lease; the
 * leases of the faults this run applied are renewed every third of the lease,
 * so a target that stops hearing from us (the arena was SIGKILLed) reverts
 * them by itself. stop() DELETEs every fault this run applied and says which
 * ones it could not revert.
 */
import { createTrialTasks } from '../trial-tasks.js';
import { randomUUID } from 'node:crypto';
import type { ActionType, LlmErrorType } from '../../arena/action.js';
import { ACTION_TYPES } from '../../arena/action.js';
import type {
  ActiveFault,
  DAGProvider,
  FaultOptions,
  FaultReport,
  HealthScope,
  RuntimeProvider,
  Target,
  UnsupportedFaults,
} from '../../arena/providers.js';
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import { deepFreeze } from '../../shared/deep-freeze.js';
import { CancelledError, RuntimeError, errorMessage } from '../../shared/errors.js';
import { DEFAULT_LEASE_MS, type FaultRequest } from '../../protocol/wire.js';
import { createProtocolClient, type TargetDocument } from './client.js';
import type { RemoteTargetSpec } from './spec.js';

export interface RemoteTargetOptions {
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Ctrl-C / SIGTERM: ends the reads waiting on the target (reverts still run) */
  signal?: AbortSignal;
}

export function createRemoteTarget(spec: RemoteTargetSpec, options: RemoteTargetOptions = {}): Target {
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  const token = spec.token_env ? env[spec.token_env] : undefined;
  const leaseMs = spec.lease ?? DEFAULT_LEASE_MS;
  const client = createProtocolClient({
    url: spec.url,
    ...(token ? { token } : {}),
    timeoutMs: spec.timeout ?? 2000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const runId = randomUUID().slice(0, 8);
  let seq = 0;
  let doc: TargetDocument | undefined;
  /** faults this run applied that may still be active: id → {type, target} */
  const applied = new Map<string, { type: string; target?: string }>();
  let renewTimer: TimerHandle | undefined;
  let stopped = false;
  /**
   * Concurrent reads of the target document share one GET: survival reads agents, DAG nodes and
   * edges at once on every tick, which was three requests for one document. Frozen, since the
   * readers share it.
   */
  let reading: Promise<TargetDocument> | undefined;
  const readTarget = (): Promise<TargetDocument> =>
    (reading ??= client
      .target()
      .then(deepFreeze)
      .finally(() => {
        reading = undefined;
      }));

  const renewLoop = () => {
    renewTimer = clock.setTimer(Math.max(50, Math.floor(leaseMs / 3)), () => {
      void (async () => {
        if (applied.size > 0) {
          try {
            const renewed = new Set(await client.renew([...applied.keys()], leaseMs));
            // a fault the target no longer has ended on its own (duration, revert): stop renewing it
            for (const id of [...applied.keys()]) if (!renewed.has(id)) applied.delete(id);
          } catch {
            // unreachable for now: the next round tries again; past the lease the target reverts by itself
          }
        }
        if (!stopped) renewLoop();
      })();
    });
  };

  const apply = async (type: ActionType, fields: Partial<FaultRequest>, opts?: FaultOptions): Promise<FaultReport> => {
    if (doc && !doc.faults.includes(type))
      throw new RuntimeError(`${type}: target ${spec.name} does not support it`, { code: 'unsupported' });
    const id = `${runId}-${++seq}`;
    const request: FaultRequest = { id, type, params: {}, lease_ms: leaseMs, ...fields };
    if (opts?.durationMs !== undefined) request.duration_ms = opts.durationMs;
    applied.set(id, { type, ...(fields.target_id !== undefined ? { target: fields.target_id } : {}) });
    try {
      const answer = await client.addFault(request);
      return { ...answer.report, fault_id: id };
    } catch (err) {
      applied.delete(id);
      throw err;
    }
  };

  const revertOne = async (id: string): Promise<boolean> => {
    const answer = await client.deleteFault(id);
    applied.delete(id);
    return answer.reverted;
  };

  const runtime: RuntimeProvider = {
    listAgents: async () => (await readTarget()).agents,
    stopAgent: (id) => apply('kill_agent', { target_id: id }),
    pauseAgent: (id, opts) => apply('pause_agent', { target_id: id }, opts),
    async resumeAgent(id) {
      // a pause this run applied is ended by its DELETE; otherwise ask the target to resume
      const pauses = [...applied]
        .filter(([, f]) => f.type === 'pause_agent' && f.target === id)
        .map(([faultId]) => faultId);
      if (pauses.length === 0) return apply('resume_agent', { target_id: id });
      for (const faultId of pauses) await revertOne(faultId);
      return { resumed_agent_id: id, reverted_fault_ids: pauses };
    },
    slowAgent: (id, delayMs, opts) => apply('slow_agent', { target_id: id, params: { delay_ms: delayMs } }, opts),
    partitionNetwork: (id, opts) => apply('network_partition', { target_id: id }, opts),
    toolTimeout: (id, opts) => apply('tool_timeout', { target_id: id }, opts),
    toolFault: (id, params, opts) => apply('tool_fault', { target_id: id, params }, opts),
    corruptMemory: (id) => apply('memory_corrupt', { target_id: id }),
    disconnectMcp: (id) => apply('mcp_disconnect', { target_id: id }),
    injectLlmFailure: (id, errorType: LlmErrorType, opts) =>
      apply('llm_failure', { target_id: id, params: { ...opts?.params, error_type: errorType } }, opts),
    activeFaults: async () =>
      (await client.listFaults()).map(
        (f): ActiveFault => ({
          id: f.id,
          kind: f.type,
          target: f.target_id ?? '',
          started_at_ms: f.started_at_ms,
          ...(f.ends_at_ms !== undefined ? { ends_at_ms: f.ends_at_ms } : {}),
        }),
      ),
    revertFault: revertOne,
    async revertAll() {
      const failed: string[] = [];
      for (const id of [...applied.keys()]) {
        try {
          await revertOne(id);
        } catch (err) {
          failed.push(`${id} (${errorMessage(err)})`);
        }
      }
      if (failed.length > 0) {
        throw new RuntimeError(
          `could not revert ${failed.length} fault(s) on target ${spec.name} at ${client.url}: ${failed.join('; ')}; their leases (${leaseMs} ms) end them on the target`,
          { code: 'revert_failed' },
        );
      }
    },
  };

  const dag: DAGProvider = {
    listNodes: async () => (await readTarget()).dag?.nodes ?? [],
    listEdges: async () => (await readTarget()).dag?.edges ?? [],
    removeNode: (id) => apply('remove_node', { target_id: id }),
    removeEdge: (from, to) => apply('remove_edge', { source_id: from, target_id: to }),
  };

  const trials = createTrialTasks(spec);
  return {
    kind: 'remote',
    ...(trials ? { trials } : {}),
    name: spec.name,
    runtime,
    dag,
    observer: {
      health: (scope: HealthScope) => client.health(healthQuery(scope)),
      async workload() {
        // a target without a workload measures no availability: nothing served, nothing failed
        if (doc && !doc.workload) return { requests: 0, succeeded: 0, failed: 0 };
        return client.workload();
      },
      async checkInvariants() {
        if (doc && !doc.invariants) return [];
        return client.invariants();
      },
    },
    async start() {
      try {
        doc = await client.target();
      } catch (err) {
        // an interrupt stays one (exit 130), not a target that failed to answer
        if (err instanceof CancelledError) throw err;
        throw new RuntimeError(`target ${spec.name} at ${client.url} did not answer: ${errorMessage(err)}`, {
          code: 'target_unreachable',
          cause: err,
        });
      }
      stopped = false;
      renewLoop();
    },
    async stop() {
      try {
        await runtime.revertAll();
      } finally {
        stopped = true;
        renewTimer?.cancel();
        client.close();
      }
    },
    unsupportedFaults() {
      const out: UnsupportedFaults = {};
      if (!doc) return out;
      for (const type of ACTION_TYPES) {
        if (type === 'kill_leader' || type === 'kill_orchestrator' || type === 'resume_agent') continue;
        if (!doc.faults.includes(type))
          out[type] =
            `target ${spec.name} does not offer it (its GET /v1/target lists: ${doc.faults.join(', ') || 'none'})`;
      }
      // the arena resolves the leader and orchestrator itself and kills them with kill_agent
      for (const type of ['kill_leader', 'kill_orchestrator'] as const) if (out.kill_agent) out[type] = out.kill_agent;
      // with no orchestrator among its agents there is nothing for kill_orchestrator to find: say so up front
      if (!out.kill_orchestrator && !doc.agents.some((a) => a.role === 'orchestrator' || a.role === 'standby'))
        out.kill_orchestrator = `target ${spec.name} has no agent with role orchestrator (its GET /v1/target lists none)`;
      if (!doc.dag)
        for (const type of ['remove_node', 'remove_edge'] as const)
          out[type] = `target ${spec.name} has no workflow DAG`;
      return out;
    },
    async describe() {
      const d = await client.target();
      return {
        name: d.name,
        kind: 'remote',
        agents: d.agents,
        dag: d.dag ?? { nodes: [], edges: [] },
        strategy: {
          protocol: d.protocol,
          url: client.url,
          faults: d.faults,
          workload: d.workload,
          invariants: d.invariants,
          lease_ms: leaseMs,
        },
      };
    },
  };
}

function healthQuery(scope: HealthScope): string {
  const q = new URLSearchParams({ scope: scope.kind });
  if (scope.kind === 'agent') {
    q.set('id', scope.id);
    if (scope.aspect) q.set('aspect', scope.aspect);
  }
  return q.toString();
}
