/**
 * The LLM probe (DESIGN §9.1: an llm_failure is "recovered when a probe call
 * through the proxy succeeds"): one tiny, non-streamed completion POSTed to
 * the agent's LLM proxy, exactly where the agent's SDK sends its calls, so it
 * meets the same faults and the same upstream. It carries
 * `x-arena-client: arena-probe`, which keeps it apart from the agents in the
 * proxy's per-client stats. Healthy when it answers 2xx.
 */
import { httpCall } from '../../shared/http-call.js';

export const PROBE_CLIENT = 'arena-probe';

export interface LlmProbeConfig {
  /** the proxy's bound port on loopback */
  port: number;
  api: 'openai' | 'anthropic';
  model?: string;
  /** the API key for the upstream, when the arena's environment has one (a stand-in needs none) */
  apiKey?: string;
  timeoutMs: number;
}

/** cheap models that every account can call: the probe asks for one token */
const DEFAULT_MODEL = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest' } as const;

/** the environment variable each API's SDK reads its key from, read here for the probe's key */
export const API_KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

/** undefined when the call succeeded, else what went wrong (status and the start of the answer) */
export async function llmProbe(config: LlmProbeConfig): Promise<string | undefined> {
  const model = config.model ?? DEFAULT_MODEL[config.api];
  const messages = [{ role: 'user', content: 'ping' }];
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-arena-client': PROBE_CLIENT };
  let path: string;
  let body: unknown;
  if (config.api === 'anthropic') {
    path = '/v1/messages';
    body = { model, max_tokens: 1, messages };
    headers['anthropic-version'] = '2023-06-01';
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
  } else {
    path = '/v1/chat/completions';
    body = { model, max_tokens: 1, messages };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  }
  const url = `http://127.0.0.1:${config.port}${path}`;
  try {
    const answer = await httpCall({
      method: 'POST',
      url,
      headers,
      body: JSON.stringify(body),
      timeoutMs: config.timeoutMs,
      maxBytes: 4096,
    });
    if (answer.status >= 200 && answer.status < 300) return undefined;
    return `LLM probe POST ${url} answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`;
  } catch (err) {
    return `LLM probe ${(err as Error).message}`;
  }
}
