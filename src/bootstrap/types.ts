/**
 * The public shape of the root container. Every component is reached through
 * a port made of plain data and functions, so nothing internal leaks into the
 * types a program embedding chaos-arena sees.
 */
import type { Result } from '../arena/action.js';
import type { RunEventListener } from '../arena/report.js';
import type { Clock } from '../shared/clock.js';
import type { TargetFactory, TargetDescription, AgentInfo, ActiveFault } from '../arena/providers.js';

export interface BootstrapConfig {
  /** fixes every random choice of the runtime and faults */
  seed?: number;
  /** recovery strategy for the embedded runtime (validated) */
  strategy?: unknown;
  clock?: Clock;
  /** attack something other than the embedded runtime */
  targetFactory?: TargetFactory;
  /** steady-state workload runs per second */
  workloadRate?: number;
  /** where arena events go: in memory (default), a SQLite file, or a PostgreSQL database shared by several servers */
  eventStore?: { kind: 'memory' } | { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  /** an OpenAI-compatible endpoint for the LLM group; the offline local model otherwise */
  llm?: { baseUrl: string; model: string; apiKeyEnv?: string; timeoutMs?: number };
  /**
   * Live evolution: patch the running runtime's recovery strategy from applied
   * faults it did not recover from in time. Off by default (it rewrites a live
   * strategy); `arena serve --evolve` turns it on.
   */
  evolve?: boolean;
  /** told every event of every run on the root's arena (`arena serve --otlp`: spans per run and fault) */
  runListener?: RunEventListener;
}

export interface ArenaPort {
  execute(action: unknown): Promise<Result>;
  history(): Result[];
  stats(): Record<string, unknown>;
  metrics(): Record<string, unknown>;
  agents(): Promise<AgentInfo[]>;
  activeFaults(): Promise<ActiveFault[]>;
  revertAll(): Promise<void>;
}

export interface RuntimePort {
  readonly isRunning: boolean;
  start(): Promise<{ running: boolean }>;
  stop(): Promise<{ running: boolean }>;
  stats(): Promise<Record<string, unknown>>;
  agent(id: string): Promise<Record<string, unknown>>;
  strategy(): Promise<Record<string, unknown>>;
  updateStrategy(patch: Record<string, unknown>): Record<string, unknown>;
  describe(): Promise<TargetDescription>;
}

export interface McpPort {
  isConnected(): boolean;
  listTools(): Promise<Array<{ name: string; description?: string }>>;
  callTool(name: string, args?: Record<string, unknown>): Promise<unknown>;
}

export interface LlmPort {
  complete(
    call: {
      messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
      model?: string;
      max_tokens?: number;
    },
    signal?: AbortSignal,
  ): Promise<{
    text: string;
    provider: string;
    model: string;
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  }>;
  stats(): Record<string, unknown>;
}

export interface StreamPort {
  processStream(
    input: { query: string; session_id?: string; options?: Record<string, unknown> },
    signal: AbortSignal,
  ): AsyncIterable<{ event: string; data?: unknown; error?: string }>;
}

export interface RootStatus {
  running: boolean;
  started_at: string | null;
  target: string;
  in_flight_actions: number;
  components: string[];
}

export type { Result };
