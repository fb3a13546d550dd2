/**
 * The 12 route groups of DESIGN §7: each group's name, the service it runs
 * on, and how it mounts its routes. Mapped over the names, so a group added
 * to ROUTE_GROUPS does not compile until it is given a service and a mount.
 */
import type { Routes } from '../routes.js';
import { registerAgentRoutes, type AgentService } from './agent.js';
import { registerEvalRoutes, type EvalService } from './eval.js';
import { registerEvolutionRoutes, type EvolutionService } from './evolution.js';
import { registerFlightRoutes, type FlightService } from './flight.js';
import { registerLlmRoutes, type LlmService } from './llm.js';
import { registerMemoryRoutes, type MemoryService } from './memory.js';
import { registerRetrievalRoutes, type RetrievalService } from './retrieval.js';
import { registerRuntimeRoutes, type RuntimeService } from './runtime.js';
import { registerStreamRoutes, type StreamProcessor } from './stream.js';
import { registerWorkflowRoutes, type WorkflowApi } from './workflow.js';

export const ROUTE_GROUPS = [
  'stream',
  'evolution',
  'runtime-evolution',
  'workflow',
  'agent',
  'memory',
  'arena',
  'runtime',
  'retrieval',
  'eval',
  'flight',
  'llm',
] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

/** Anything that mounts its own routes, such as the ArenaHandler. */
export interface RouteModule {
  registerRoutes(routes: Routes): void;
}

/** what each group runs on */
export interface RouteGroupServices {
  stream: StreamProcessor;
  evolution: EvolutionService;
  'runtime-evolution': EvolutionService;
  workflow: WorkflowApi;
  agent: AgentService;
  memory: MemoryService;
  /** the arena routes are the ArenaHandler's; it mounts them under /arena and /api/v1/arena */
  arena: RouteModule;
  runtime: RuntimeService;
  retrieval: RetrievalService;
  eval: EvalService;
  flight: FlightService;
  llm: LlmService;
}

export const GROUP_MOUNTS: { readonly [G in RouteGroup]: (routes: Routes, service: RouteGroupServices[G]) => void } = {
  stream: registerStreamRoutes,
  evolution: (routes, service) => registerEvolutionRoutes(routes, '/api/v1/evolution', service),
  'runtime-evolution': (routes, service) => registerEvolutionRoutes(routes, '/api/v1/runtime-evolution', service),
  workflow: registerWorkflowRoutes,
  agent: registerAgentRoutes,
  memory: registerMemoryRoutes,
  arena: (routes, handler) => handler.registerRoutes(routes),
  runtime: registerRuntimeRoutes,
  retrieval: registerRetrievalRoutes,
  eval: registerEvalRoutes,
  flight: registerFlightRoutes,
  llm: registerLlmRoutes,
};
