/**
 * Real probes: each one makes a call that exercises the service (an LLM
 * completion, a memory write and read, a search, a workflow run), timed.
 */
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { LlmClient } from '../runtime/llm/index.js';
import type { ConversationMemory } from '../runtime/services/conversation-memory.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { McpSession } from '../runtime/mcp/index.js';
import { executeWorkflow } from '../workflow/engine.js';
import { AgentRegistry } from '../workflow/registry.js';
import type { WorkflowService } from '../workflow/service.js';
import { probeId, type AgentService } from './agent-service.js';

export interface ClientServiceHealth {
  status: 'ok' | 'error' | 'not_configured';
  latency_ms: number;
  error?: string;
}

export interface ClientHealthReport {
  /** every configured service answered */
  healthy: boolean;
  services: Record<string, ClientServiceHealth>;
}

export const PROBE_TIMEOUT_MS = 5000;

export async function probeService(name: string, get: () => unknown, clock: Clock): Promise<ClientServiceHealth> {
  const t0 = clock.now();
  const controller = new AbortController();
  const timer = clock.setTimer(PROBE_TIMEOUT_MS, () =>
    controller.abort(new Error(`probe timed out after ${PROBE_TIMEOUT_MS} ms`)),
  );
  try {
    const timeout = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
    );
    await Promise.race([Promise.resolve(get()).then((service) => probe(name, service, controller.signal)), timeout]);
    return { status: 'ok', latency_ms: clock.now() - t0 };
  } catch (err) {
    return { status: 'error', latency_ms: clock.now() - t0, error: errorMessage(err) };
  } finally {
    timer.cancel();
  }
}

async function probe(name: string, service: unknown, signal: AbortSignal): Promise<void> {
  switch (name) {
    case 'llm': {
      const r = await (service as LlmClient).complete({
        messages: [{ role: 'user', content: 'echo ping' }],
        maxTokens: 4,
        signal,
      });
      if (typeof r.text !== 'string') throw new Error('LLM answered without text');
      return;
    }
    case 'agent': {
      const agents = service as AgentService;
      await agents.execute(agents.defaultAgentId, 'echo ping', { signal, session_id: probeId() });
      return;
    }
    case 'memory': {
      const memory = service as ConversationMemory;
      const id = probeId();
      memory.createSession({ id });
      try {
        memory.addMessage(id, { role: 'user', content: 'ping' });
        if (memory.messages(id).at(-1)?.content !== 'ping') throw new Error('memory did not return what was written');
      } finally {
        memory.deleteSession(id);
      }
      return;
    }
    case 'retrieval': {
      const hits = (service as RetrievalIndex).search('ping', 1);
      if (!Array.isArray(hits)) throw new Error('retrieval returned no result list');
      return;
    }
    case 'workflow': {
      const workflows = service as WorkflowService;
      workflows.listWorkflows();
      // runs the engine end to end on a private registry, leaving the service's state untouched
      const registry = new AgentRegistry().register('probe', () => ({ execute: async (ctx) => ctx.workflowInput }));
      const r = await executeWorkflow(
        { id: 'health-probe', steps: [{ id: 'ping', agent_type: 'probe' }] },
        { registry, input: 'pong', signal },
      );
      if (r.status !== 'completed' || r.output !== 'pong')
        throw new Error(`workflow engine probe ${r.status}: ${r.error ?? 'wrong output'}`);
      return;
    }
    case 'mcp': {
      const tools = await (service as McpSession).listTools();
      if (!Array.isArray(tools)) throw new Error('MCP server returned no tool list');
      return;
    }
    case 'runtime': {
      const runtime = service as AgentRuntime;
      if (!runtime.isRunning) throw new Error('runtime is not running');
      // a runtime still making its agents' first MCP connections (the SDK loads on first use) is starting, not broken
      await Promise.all([...runtime.cluster.agents.values()].map((a) => a.subsystems.ready));
      const h = runtime.health();
      if (!h.healthy) throw new Error(h.problems.join('; ') || 'unhealthy');
      return;
    }
    default: {
      const s = service as { health?: () => unknown; ping?: () => unknown };
      if (typeof s.health === 'function') await s.health();
      else if (typeof s.ping === 'function') await s.ping();
    }
  }
}
