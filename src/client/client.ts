import { systemClock, type Clock } from '../shared/clock.js';
import { NotFoundError, UsageError } from '../shared/errors.js';
import { connectorFor, createMcpSession, type McpSession } from '../runtime/mcp/index.js';
import type { LlmClient } from '../runtime/llm/index.js';
import { createConversationMemory, type ConversationMemory } from '../runtime/services/conversation-memory.js';
import { createRetrievalIndex, type RetrievalIndex } from '../runtime/services/retrieval.js';
import { createRuntime, type AgentRuntime, type CreateRuntimeOptions } from '../runtime/runtime.js';
import { WorkflowService } from '../workflow/service.js';
import { createAgentService, type AgentService } from './agent-service.js';
import { durationMs, validateClientConfig, type ClientConfig } from './config.js';
import { ClientCloseError, ClientClosedError, NotConfiguredError, type ServiceCloseFailure } from './errors.js';
import { probeService, type ClientHealthReport, type ClientServiceHealth } from './health.js';
import { buildLlmClient } from './llm.js';
import { createBuiltinRegistry } from './step-agents.js';
import { formatConfigProblems } from './format.js';

export const SERVICE_NAMES = ['agent', 'memory', 'retrieval', 'llm', 'workflow'] as const;
export type ClientServiceName = (typeof SERVICE_NAMES)[number];

export interface ClientServices {
  agent: AgentService;
  memory: ConversationMemory;
  retrieval: RetrievalIndex;
  llm: LlmClient;
  workflow: WorkflowService;
}

interface Built {
  name: string;
  service: unknown;
}

/**
 * One entry point for programs embedding Chaos Arena. Services are built on
 * first use from the config; a service the config does not describe throws
 * NotConfiguredError. `close()` stops everything that was built, once.
 */
export class Client {
  readonly config: ClientConfig;
  private readonly clock: Clock;
  private readonly built = new Map<string, Built>();
  private readonly order: Built[] = [];
  private readonly mcpSessions = new Map<string, Promise<McpSession>>();
  private closed = false;
  private closing?: Promise<void>;

  constructor(config: ClientConfig = {}) {
    const problems = validateClientConfig(config);
    if (problems.length > 0) {
      throw new UsageError(`invalid client config: ${problems.length} problem(s)\n${formatConfigProblems(problems)}`, {
        code: 'invalid_client_config',
        details: { errors: problems },
      });
    }
    this.config = config;
    this.clock = config.clock ?? systemClock;
  }

  /** whether the config describes this service */
  isConfigured(name: ClientServiceName): boolean {
    if (name === 'agent') return this.config.agents !== undefined;
    return this.config[name] !== undefined;
  }

  configuredServices(): ClientServiceName[] {
    return SERVICE_NAMES.filter((n) => this.isConfigured(n));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  llm(): LlmClient {
    return this.lazy('llm', () => buildLlmClient(this.config.llm!, this.clock, this.config.env));
  }

  memory(): ConversationMemory {
    return this.lazy('memory', () =>
      createConversationMemory({
        clock: this.clock,
        maxMessagesPerSession: this.config.memory!.max_messages_per_session,
        maxSessions: this.config.memory!.max_sessions,
      }),
    );
  }

  retrieval(): RetrievalIndex {
    return this.lazy('retrieval', () => {
      const index = createRetrievalIndex({ clock: this.clock, maxDocuments: this.config.retrieval!.max_documents });
      if (this.config.retrieval!.documents?.length) index.add(this.config.retrieval!.documents);
      return index;
    });
  }

  agent(): AgentService {
    return this.lazy('agent', () => {
      if (!this.isConfigured('llm')) throw new NotConfiguredError('llm', 'agents answer through the LLM service');
      return createAgentService({
        agents: this.config.agents!,
        defaultAgent: this.config.default_agent,
        llm: () => this.llm(),
        memory: this.isConfigured('memory') ? () => this.memory() : undefined,
        retrieval: this.isConfigured('retrieval') ? () => this.retrieval() : undefined,
        clock: this.clock,
      });
    });
  }

  workflow(): WorkflowService {
    return this.lazy('workflow', () => {
      const w = this.config.workflow!;
      const registry =
        w.agent_registry ??
        createBuiltinRegistry({
          llm: this.isConfigured('llm') ? () => this.llm() : undefined,
          agents: this.isConfigured('agent') ? () => this.agent() : undefined,
          retrieval: this.isConfigured('retrieval') ? () => this.retrieval() : undefined,
        });
      const service = new WorkflowService({
        agentRegistry: registry,
        clock: this.clock,
        maxParallel: w.max_parallel,
        defaultStepTimeoutMs: durationMs(w.default_step_timeout_ms),
      });
      for (const def of w.workflows ?? []) service.registerWorkflow(def);
      return service;
    });
  }

  /** names of the configured MCP servers */
  mcpServers(): string[] {
    return Object.keys(this.config.mcp?.servers ?? {});
  }

  /**
   * A connected session to a configured MCP server (the only one when `name`
   * is omitted), created on first use and reconnecting with backoff.
   */
  mcp(name?: string): Promise<McpSession> {
    this.assertOpen('mcp()');
    const mcp = this.config.mcp;
    if (!mcp) return Promise.reject(new NotConfiguredError('mcp'));
    const names = this.mcpServers();
    const key = name ?? (names.length === 1 ? names[0] : undefined);
    if (key === undefined)
      return Promise.reject(
        new UsageError(`several MCP servers are configured (${names.join(', ')}): name one`, {
          code: 'mcp_server_ambiguous',
        }),
      );
    if (!mcp.servers[key])
      return Promise.reject(
        new NotFoundError(`unknown MCP server '${key}' (configured: ${names.join(', ')})`, {
          code: 'mcp_server_not_found',
        }),
      );
    const existing = this.mcpSessions.get(key);
    if (existing) return existing;
    const session = createMcpSession({
      connect: connectorFor(mcp.servers[key], `mcp.servers.${key}`),
      clock: this.clock,
      name: 'chaos-arena-client',
      requestTimeoutMs: durationMs(mcp.request_timeout_ms),
      reconnect: {
        ...(mcp.reconnect?.enabled !== undefined ? { enabled: mcp.reconnect.enabled } : {}),
        ...(mcp.reconnect?.backoff_ms !== undefined ? { backoffMs: durationMs(mcp.reconnect.backoff_ms) } : {}),
        ...(mcp.reconnect?.max_backoff_ms !== undefined
          ? { maxBackoffMs: durationMs(mcp.reconnect.max_backoff_ms) }
          : {}),
        ...(mcp.reconnect?.max_attempts !== undefined ? { maxAttempts: mcp.reconnect.max_attempts } : {}),
      },
    });
    const entry = { name: `mcp:${key}`, service: session };
    this.order.push(entry);
    const connected = session.connect().then(
      () => session,
      async (error: unknown) => {
        // a failed first connect is not cached: the next call tries again
        this.mcpSessions.delete(key);
        this.order.splice(this.order.indexOf(entry), 1);
        await session.close().catch(() => undefined);
        throw error;
      },
    );
    this.mcpSessions.set(key, connected);
    return connected;
  }

  /** creates and starts an embedded agent runtime; `close()` stops it */
  runtime(config: CreateRuntimeOptions = {}): AgentRuntime {
    this.assertOpen('runtime()');
    const runtime = createRuntime({ clock: this.clock, ...config });
    runtime.start();
    const entry = {
      name: `runtime-${this.order.filter((b) => b.name.startsWith('runtime')).length + 1}`,
      service: runtime,
    };
    this.order.push(entry);
    return runtime;
  }

  /** probes every configured service for real (a call each), with its latency */
  async health(): Promise<ClientHealthReport> {
    this.assertOpen('health()');
    const services: Record<string, ClientServiceHealth> = {};
    for (const name of SERVICE_NAMES) {
      if (!this.isConfigured(name)) {
        services[name] = { status: 'not_configured', latency_ms: 0 };
        continue;
      }
      services[name] = await probeService(name, () => this[name](), this.clock);
    }
    for (const server of this.mcpServers()) {
      services[`mcp:${server}`] = await probeService('mcp', () => this.mcp(server), this.clock);
    }
    for (const b of this.order) {
      if (b.name.startsWith('runtime')) services[b.name] = await probeService('runtime', () => b.service, this.clock);
    }
    const probed = Object.values(services).filter((s) => s.status !== 'not_configured');
    return { healthy: !this.closed && probed.every((s) => s.status === 'ok'), services };
  }

  /** true when the client is open and every configured service answers */
  async ping(): Promise<boolean> {
    if (this.closed) return false;
    return (await this.health()).healthy;
  }

  /**
   * Stops (`stop()`) or closes (`close()`) every service that was built, newest
   * first, each once. Failures are collected into one ClientCloseError.
   * Calling it again returns the same outcome without closing anything twice.
   */
  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    this.closed = true;
    const failures: ServiceCloseFailure[] = [];
    for (const { name, service } of [...this.order].reverse()) {
      const s = service as { stop?: () => unknown; close?: () => unknown };
      try {
        if (typeof s.stop === 'function') await s.stop();
        else if (typeof s.close === 'function') await s.close();
      } catch (error) {
        failures.push({ service: name, error });
      }
    }
    this.built.clear();
    this.mcpSessions.clear();
    this.order.length = 0;
    if (failures.length > 0) throw new ClientCloseError(failures);
  }

  private assertOpen(what: string): void {
    if (this.closed) throw new ClientClosedError(what);
  }

  private lazy<T>(name: ClientServiceName, build: () => T): T {
    this.assertOpen(`${name}()`);
    const existing = this.built.get(name);
    if (existing) return existing.service as T;
    if (!this.isConfigured(name)) throw new NotConfiguredError(name);
    const entry = { name, service: build() };
    this.built.set(name, entry);
    this.order.push(entry);
    return entry.service as T;
  }
}
