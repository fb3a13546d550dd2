import type { LlmMessage, LlmResponse } from '../runtime/llm/index.js';
import { UsageError } from '../shared/errors.js';
import { readSmallFile } from '../workflow/load.js';
import { parseYamlSource } from '../shared/yaml-source.js';
import type { AgentExecuteOptions, AgentResponse } from './agent-service.js';
import { Client } from './client.js';
import { validateClientConfig, type ClientConfig } from './config.js';
import { formatConfigProblems } from './format.js';

const MAX_CONFIG_BYTES = 1024 * 1024;

/** code-only options for SimpleClient (things a YAML file cannot hold) */
export type SimpleClientOptions = Pick<ClientConfig, 'clock' | 'env'>;

/**
 * The shortest path from a config file to answers: an LLM (the offline local
 * model unless the file says otherwise) and named agents.
 */
export class SimpleClient {
  readonly client: Client;

  constructor(config: ClientConfig = {}) {
    this.client = new Client({
      ...config,
      llm: config.llm ?? { provider: 'local' },
      agents: config.agents ?? [{ id: 'assistant', system_prompt: 'You are a helpful assistant.' }],
    });
  }

  /** reads a YAML config (llm, agents, memory, retrieval, workflow); invalid → UsageError with file:line:column for each problem */
  static async fromConfigFile(path: string, options: SimpleClientOptions = {}): Promise<SimpleClient> {
    return SimpleClient.fromConfigText(await readSmallFile(path, MAX_CONFIG_BYTES, 'config'), path, options);
  }

  static fromConfigText(text: string, source?: string, options: SimpleClientOptions = {}): SimpleClient {
    const parsed = parseYamlSource(text, MAX_CONFIG_BYTES);
    const value = parsed.value ?? {};
    const problems =
      parsed.errors.length > 0
        ? parsed.errors
        : [...validateClientConfig(value), ...codeOnlyKeys(value)].map((p) => parsed.locate(p));
    if (problems.length > 0) {
      const label = source ? `invalid config ${source}` : 'invalid config';
      throw new UsageError(`${label}: ${problems.length} problem(s)\n${formatConfigProblems(problems, source)}`, {
        code: 'invalid_client_config',
        details: { errors: problems },
      });
    }
    return new SimpleClient({ ...(value as ClientConfig), ...options });
  }

  /** asks the default agent */
  execute(query: string, options?: AgentExecuteOptions): Promise<AgentResponse> {
    const agents = this.client.agent();
    return agents.execute(agents.defaultAgentId, query, options);
  }

  /** asks a named agent; unknown id → NotFoundError */
  executeWithAgent(agentId: string, query: string, options?: AgentExecuteOptions): Promise<AgentResponse> {
    return this.client.agent().execute(agentId, query, options);
  }

  /** a raw chat completion through the configured LLM (retries and fallback included) */
  chat(
    messages: LlmMessage[],
    options: { model?: string; maxTokens?: number; signal?: AbortSignal } = {},
  ): Promise<LlmResponse> {
    return this.client.llm().complete({ messages, ...options });
  }

  agents(): string[] {
    return this.client
      .agent()
      .list()
      .map((a) => a.id);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** options that only code can pass (a clock, an env object, a registry) have no meaning in a file */
function codeOnlyKeys(value: unknown): Array<{ path: string; message: string }> {
  const v = value as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null) return [];
  const found = ['clock', 'env'].filter((k) => k in v);
  const workflow = v.workflow as Record<string, unknown> | undefined;
  if (typeof workflow === 'object' && workflow !== null && 'agent_registry' in workflow)
    found.push('workflow.agent_registry');
  return found.map((path) => ({
    path,
    message: `unknown key '${path.split('.').pop()}' (it can only be passed in code)`,
  }));
}
