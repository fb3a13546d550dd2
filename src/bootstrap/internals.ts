/**
 * What the server needs beyond the public ports (the ArenaService for the
 * arena handler, the services behind each route group). Kept out of the
 * public root type on purpose: reach it only through `rootInternals(root)`.
 */
import type { ArenaService } from '../arena/service.js';
import type { EventStore } from '../arena/event-store.js';
import type { Target } from '../arena/providers.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { ConversationMemory } from '../runtime/services/conversation-memory.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { EvalRunner } from '../runtime/services/eval.js';
import type { Assistants } from '../runtime/services/assistants.js';
import type { WorkflowsPort } from './workflows.js';
import type { LLMPort, MCPPort, RuntimePort, StreamPort } from './types.js';
import type { SurvivalPort } from './survival.js';
import type { ScenariosPort } from './scenarios.js';
import type { FlightService } from '../flight/index.js';
import type { EvolutionService, LiveEvolutionStatus } from '../evolution/index.js';

export interface RootInternals {
  service: ArenaService;
  eventStore: EventStore;
  target: Target;
  runtime?: AgentRuntime;
  memory: ConversationMemory;
  retrieval: RetrievalIndex;
  eval: EvalRunner;
  assistants: Assistants;
  workflows: WorkflowsPort;
  llm: LLMPort;
  mcp: MCPPort;
  runtimePort: RuntimePort;
  stream: StreamPort;
  survival: SurvivalPort;
  flight: FlightService;
  scenarios: ScenariosPort;
  evolution: EvolutionService;
  /** undefined when the target has no embedded runtime to evolve */
  runtimeEvolution?: EvolutionService;
  /** whether live patching of the runtime's strategy is on (config.evolve), and what it did */
  liveEvolution(): Record<string, unknown> | LiveEvolutionStatus;
}

const internals = new WeakMap<object, RootInternals>();

export function setRootInternals(root: object, value: RootInternals): void {
  internals.set(root, value);
}

export function rootInternals(root: object): RootInternals {
  const value = internals.get(root);
  if (!value) throw new Error('not a root built by bootstrap()');
  return value;
}
