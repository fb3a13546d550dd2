/**
 * Each fault's own arena route (DESIGN §7), under /arena and /api/v1/arena:
 * its path and how the request becomes the action's fields. A body the route
 * does not take is refused before anything is injected (garbage must change
 * nothing). A Record over every fault type: a new fault does not compile
 * until it is given a route here.
 */
import type { ActionType } from '../arena/action.js';
import { llmFaultShape } from '../protocol/llm-faults.js';
import { TOOL_FAULT_MODES } from '../protocol/tool-faults.js';
import { body, duration, id, optionalBody, z } from './body.js';
import type { RequestContext } from './context.js';

export interface FaultRoute {
  /** after the /arena or /api/v1/arena prefix */
  path: string;
  /** the body it takes (absent: it takes none), published by `arena schema http` */
  body?: z.ZodType;
  /** the action's fields besides its type, read from the path and the body */
  action(ctx: RequestContext): Promise<Record<string, unknown>>;
}

const NONE = z.strictObject({});
const WITH_DURATION = z.strictObject({ duration: duration().optional() });
const EdgeRemove = z.strictObject({ from: id(), to: id() });

/** the keys that were given, or undefined when none were */
function definedKeys(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return Object.keys(out).length ? out : undefined;
}

/** a route that takes no body and finds its own target (the leader, the orchestrator) */
function selfTargeting(path: string): FaultRoute {
  return { path, action: async (ctx) => (await optionalBody(ctx, NONE), {}) };
}

/** `POST /agent/{id}/<verb>`: the optional body's keys become the action's metadata */
function agentFault(verb: string, accepts: z.ZodType<Record<string, unknown>> = NONE): FaultRoute {
  return {
    path: `/agent/{id}/${verb}`,
    ...(accepts === NONE ? {} : { body: accepts }),
    async action(ctx) {
      const metadata = definedKeys(await optionalBody(ctx, accepts));
      return { target_id: ctx.params.id, ...(metadata ? { metadata } : {}) };
    },
  };
}

// in the order the routes are registered (and listed)
export const FAULT_ROUTES: Record<ActionType, FaultRoute> = {
  kill_leader: selfTargeting('/leader/kill'),
  kill_orchestrator: selfTargeting('/orchestrator/kill'),
  kill_agent: agentFault('kill'),
  pause_agent: agentFault('pause', WITH_DURATION),
  resume_agent: agentFault('resume'),
  slow_agent: agentFault('slow', z.strictObject({ duration: duration().optional(), delay: duration().optional() })),
  network_partition: agentFault('partition', WITH_DURATION),
  tool_timeout: agentFault('tool-timeout', WITH_DURATION),
  memory_corrupt: agentFault('memory-corrupt'),
  mcp_disconnect: agentFault('mcp-disconnect'),
  llm_failure: agentFault('llm-failure', z.strictObject({ ...llmFaultShape, duration: duration().optional() })),
  tool_fault: agentFault(
    'tool-fault',
    z.strictObject({
      mode: z.enum(TOOL_FAULT_MODES),
      tool: z.string().min(1).optional(),
      keep: z.number().min(0).max(1).optional(),
      payload: z.string().min(1).optional(),
      hide: z.array(z.string()).optional(),
      rename: z.record(z.string(), z.record(z.string(), z.string())).optional(),
      duration: duration().optional(),
    }),
  ),
  remove_node: {
    path: '/node/{id}/remove',
    action: async (ctx) => (await optionalBody(ctx, NONE), { target_id: ctx.params.id }),
  },
  remove_edge: {
    path: '/edge/remove',
    body: EdgeRemove,
    async action(ctx) {
      const edge = await body(ctx, EdgeRemove);
      return { source_id: edge.from, target_id: edge.to };
    },
  },
};
