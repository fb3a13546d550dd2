/**
 * The LLM probe (DESIGN §9.1: an llm_failure is "recovered when a probe call
 * through the proxy succeeds"): one tiny, non-streamed call POSTed to the
 * agent's LLM proxy, exactly where the agent's SDK sends its calls, so it
 * meets the same faults and the same upstream. It asks what the agent's own
 * traffic asked (its last call's path and model: an upstream that serves only
 * the Responses API, or allows only some models, answers the probe too),
 * unless the target file fixes the path, model or body (`llm.probe`); with
 * neither, a one-token chat completion of the API's cheap default model. It
 * carries `x-arena-client: arena-probe`, which keeps it apart from the agents
 * in the proxy's per-client stats. Healthy when it answers 2xx.
 */
import { httpCall } from '../../shared/http-call.js';

export const PROBE_CLIENT = 'arena-probe';

export interface LlmProbeConfig {
  /** the proxy's bound port on loopback */
  port: number;
  api: 'openai' | 'anthropic';
  /** the path to POST to; default the API's chat call */
  path?: string;
  model?: string;
  /** the exact JSON body; `model` is added when it has none */
  body?: Record<string, unknown>;
  /** the API key for the upstream, when the arena's environment has one (a stand-in needs none) */
  apiKey?: string;
  timeoutMs: number;
}

/** cheap models that every account can call: the probe asks for one token */
const DEFAULT_MODEL = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest' } as const;
const DEFAULT_PATH = { openai: '/v1/chat/completions', anthropic: '/v1/messages' } as const;

/** the environment variable each API's SDK reads its key from, read here for the probe's key */
export const API_KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

/** the smallest valid call for the endpoint a path names (by its last segments, so prefixed gateways work) */
function smallestBody(path: string, model: string): Record<string, unknown> {
  const messages = [{ role: 'user', content: 'ping' }];
  // the Responses API refuses max_output_tokens below 16
  if (/\/responses$/.test(path)) return { model, input: 'ping', max_output_tokens: 16 };
  if (/\/embeddings$/.test(path)) return { model, input: 'ping' };
  if (/(^|\/)completions$/.test(path) && !/\/chat\/completions$/.test(path))
    return { model, prompt: 'ping', max_tokens: 1 };
  return { model, max_tokens: 1, messages };
}

/** what the probe sends: the configured parts first, then what the agents used, then the defaults */
export function probeRequest(config: Pick<LlmProbeConfig, 'api' | 'path' | 'model' | 'body'>): {
  path: string;
  body: Record<string, unknown>;
} {
  const path = config.path ?? DEFAULT_PATH[config.api];
  const model = config.model ?? DEFAULT_MODEL[config.api];
  if (config.body) return { path, body: 'model' in config.body ? config.body : { model, ...config.body } };
  return { path, body: smallestBody(path, model) };
}

/** undefined when the call succeeded, else what went wrong (status and the start of the answer) */
export async function llmProbe(config: LlmProbeConfig): Promise<string | undefined> {
  const { path, body } = probeRequest(config);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-arena-client': PROBE_CLIENT };
  if (config.api === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
  } else if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const url = `http://127.0.0.1:${config.port}${path}`;
  try {
    const answer = await httpCall({
      method: 'POST',
      url,
      headers,
      body: JSON.stringify(body),
      timeoutMs: config.timeoutMs,
      // only the status matters: a long answer (a body asking for many tokens) is cut, not failed
      maxBytes: 4096,
      overflow: 'cut',
    });
    if (answer.status >= 200 && answer.status < 300) return undefined;
    return `LLM probe POST ${url} answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`;
  } catch (err) {
    return `LLM probe ${(err as Error).message}`;
  }
}
