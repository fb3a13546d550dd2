/**
 * `arena target serve`: any Target exposed through the Arena Target Protocol
 * v1 (DESIGN §9.2). Faults go through the arena's own Injector, so the served
 * target behaves exactly as it does in-process; the fault registry adds ids,
 * idempotency and leases: a fault whose lease runs out is reverted here.
 */
import { LLM_FAULT_PARAM_NAMES } from '../protocol/llm-faults.js';
import { TOOL_FAULT_PARAMS } from '../protocol/tool-faults.js';
import { ACTION_TYPES, SELF_TARGETING, isActionType, type Action, type ActionType } from '../arena/action.js';
import { Injector } from '../arena/injector.js';
import type { AgentHealthAspect, HealthScope, Target } from '../arena/providers.js';
import type { Clock } from '../shared/clock.js';
import { isArenaError } from '../shared/errors.js';
import { createFaultRegistry, type FaultRegistry } from '../protocol/fault-registry.js';
import { loadArenaMetrics, sendMetrics } from '../protocol/metrics.js';
import {
  faultRoutes,
  listenProtocol,
  protocolHandler,
  type ProtocolRoute,
  type ProtocolServer,
} from '../protocol/http.js';
import { sendJson } from '../shared/http/respond.js';
import {
  badRequest,
  notApplicable,
  notFound,
  PROTOCOL_VERSION,
  ProtocolError,
  unsupported,
  type FaultRequest,
} from '../protocol/wire.js';

const ASPECTS: readonly AgentHealthAspect[] = ['process', 'memory', 'mcp', 'llm', 'tools', 'network'];
const SCOPES = ['agent', 'leader', 'orchestrator', 'dag', 'target'] as const;
/** params each fault type takes; anything else is a 400 naming the key */
const PARAMS: Record<ActionType, readonly string[]> = {
  kill_agent: [],
  kill_leader: [],
  kill_orchestrator: [],
  pause_agent: [],
  resume_agent: [],
  slow_agent: ['delay_ms'],
  network_partition: [],
  tool_timeout: [],
  memory_corrupt: [],
  mcp_disconnect: [],
  llm_failure: LLM_FAULT_PARAM_NAMES,
  tool_fault: TOOL_FAULT_PARAMS,
  remove_node: [],
  remove_edge: [],
};
// the target finds these itself: a target_id would be ignored, so it is refused
const NO_TARGET_ID = SELF_TARGETING;

export interface TargetProtocolOptions {
  port?: number;
  host?: string;
  token?: string;
  clock?: Clock;
  onRevert?: (id: string, reason: string, error?: unknown) => void;
}

export interface ServedTarget extends ProtocolServer {
  registry: FaultRegistry;
}

export async function serveTargetProtocol(target: Target, options: TargetProtocolOptions = {}): Promise<ServedTarget> {
  const injector = new Injector(target.runtime, target.dag);
  const supported = (): ActionType[] => {
    const refused = target.unsupportedFaults();
    return ACTION_TYPES.filter((t) => refused[t] === undefined);
  };
  // GET /metrics (DESIGN §17): what this target applied and refused, what is active, its workload
  const metrics = await loadArenaMetrics();
  const registry = createFaultRegistry({
    ...(options.clock ? { clock: options.clock } : {}),
    apply: async (request) => {
      const outcome = await applyFault(target, injector, request).then(
        (applied) => ({ applied }),
        (error: unknown) => ({ error }),
      );
      if (!('error' in outcome)) metrics.fault(request.type, request.target_id ?? '', 'applied');
      // a malformed request is no fault attempt; one the target cannot apply is a refusal
      else if (!(outcome.error instanceof ProtocolError && outcome.error.status === 400))
        metrics.fault(request.type, request.target_id ?? '', 'refused');
      if ('error' in outcome) throw outcome.error;
      return outcome.applied;
    },
    onRevert: (fault, reason, error) => options.onRevert?.(fault.id, reason, error),
  });

  metrics.beforeCollect(async () => {
    metrics.activeFaults(registry.list().map((f) => ({ kind: f.type, target: f.target_id ?? '' })));
    metrics.workload(await target.observer.workload());
  });

  const routes: ProtocolRoute[] = [
    { method: 'GET', path: '/metrics', handle: (req, res) => sendMetrics(metrics, req, res) },
    {
      method: 'GET',
      path: '/v1/target',
      handle: async (_req, res) => {
        const d = await target.describe();
        sendJson(res, 200, {
          protocol: PROTOCOL_VERSION,
          name: target.name,
          agents: d.agents,
          dag: target.dag ? d.dag : null,
          faults: supported(),
          workload: true,
          invariants: true,
        });
      },
    },
    ...faultRoutes(registry),
    {
      method: 'GET',
      path: '/v1/health',
      handle: async (_req, res, { query }) =>
        sendJson(res, 200, await mapErrors(() => target.observer.health(healthScope(query)))),
    },
    {
      method: 'GET',
      path: '/v1/workload',
      handle: async (_req, res) => sendJson(res, 200, await target.observer.workload()),
    },
    {
      method: 'POST',
      path: '/v1/invariants',
      handle: async (_req, res) => sendJson(res, 200, { checks: await target.observer.checkInvariants() }),
    },
  ];
  const server = await listenProtocol(
    protocolHandler({ routes, ...(options.token ? { token: options.token } : {}) }),
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );
  return {
    ...server,
    registry,
    async close() {
      await registry.revertAll();
      await server.close();
    },
  };
}

async function applyFault(target: Target, injector: Injector, request: FaultRequest) {
  if (!isActionType(request.type))
    throw unsupported(`unknown fault type "${request.type}" (known: ${ACTION_TYPES.join(', ')})`);
  const type = request.type;
  const refused = target.unsupportedFaults()[type];
  if (refused !== undefined) throw unsupported(`${type}: ${refused}`);
  const allowed = PARAMS[type];
  for (const key of Object.keys(request.params))
    if (!allowed.includes(key))
      throw badRequest(
        `params.${key}: not a parameter of ${type}${allowed.length ? ` (takes ${allowed.join(', ')})` : ''}`,
      );
  if (NO_TARGET_ID.has(type) && request.target_id !== undefined)
    throw badRequest(`target_id: ${type} finds its target itself; leave target_id out`);
  if (!NO_TARGET_ID.has(type) && request.target_id === undefined) throw badRequest(`target_id: required for ${type}`);
  if (type === 'remove_edge' && request.source_id === undefined)
    throw badRequest('source_id: required for remove_edge (the edge goes source_id → target_id)');
  const metadata: Record<string, unknown> = {};
  if (request.duration_ms !== undefined) metadata.duration = request.duration_ms;
  if (request.params.delay_ms !== undefined) metadata.delay = request.params.delay_ms;
  if (type === 'llm_failure' || type === 'tool_fault') Object.assign(metadata, request.params);
  const action: Action = {
    id: request.id,
    type,
    target_id: request.target_id ?? '',
    ...(request.source_id !== undefined ? { source_id: request.source_id } : {}),
    metadata,
    created_at: new Date().toISOString(),
  };
  // a copy of the report, since it is kept with the fault (it may be the provider's own object)
  const report: Record<string, unknown> = { ...(await mapErrors(() => injector.apply(action))) };
  const faultId = typeof report.fault_id === 'string' ? report.fault_id : undefined;
  return faultId === undefined
    ? { report }
    : { report, revert: async () => void (await target.runtime.revertFault(faultId)) };
}

/** the arena's typed errors as protocol answers: unknown → 404, bad input → 400, cannot apply → 422 */
async function mapErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProtocolError || !isArenaError(err)) throw err;
    if (err.status === 404) throw notFound(err.message);
    if (err.status === 400) throw badRequest(err.message);
    throw notApplicable(err.message);
  }
}

function healthScope(q: URLSearchParams): HealthScope {
  for (const key of q.keys())
    if (!['scope', 'id', 'aspect'].includes(key))
      throw badRequest(`${key}: unknown query parameter (scope, id, aspect)`);
  const scope = q.get('scope') ?? 'target';
  if (!(SCOPES as readonly string[]).includes(scope)) throw badRequest(`scope: expected one of ${SCOPES.join(', ')}`);
  if (scope !== 'agent') {
    if (q.has('id') || q.has('aspect')) throw badRequest(`id, aspect: only with scope=agent`);
    return { kind: scope as Exclude<HealthScope['kind'], 'agent'> } as HealthScope;
  }
  const id = q.get('id');
  if (!id) throw badRequest('id: required with scope=agent');
  const aspect = q.get('aspect');
  if (aspect !== null && !(ASPECTS as readonly string[]).includes(aspect))
    throw badRequest(`aspect: expected one of ${ASPECTS.join(', ')}`);
  return aspect === null ? { kind: 'agent', id } : { kind: 'agent', id, aspect: aspect as AgentHealthAspect };
}
