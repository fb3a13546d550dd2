/**
 * What an agent talks to: a primary provider with retries and exponential
 * backoff (on the injected clock), then a fallback provider. The `llm_failure`
 * fault acts on the primary only, so with a fallback the client keeps serving.
 */
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { LlmError, type LlmProviderErrorType, type LlmProvider, type LlmRequest, type LlmResponse } from './types.js';
import { quietAnswer, type QuietLlmFault } from './quiet.js';

export interface LlmClientOptions {
  primary: LlmProvider;
  fallback?: LlmProvider;
  /** extra attempts on the primary after a retryable error; default 2 */
  retries?: number;
  /** first backoff; doubles each retry; default 100 */
  backoffMs?: number;
  /** cap on one backoff (also on a server's Retry-After); default 5000 */
  maxBackoffMs?: number;
  /** default true when a fallback is given */
  fallbackEnabled?: boolean;
  /** default true */
  validate?: boolean;
  clock?: Clock;
  /** told of each answer a quiet fault changed, with the numbers wrong_value wrote (its markers, §13.3) */
  onChanged?: (change: { fault_id: string; values: string[] }) => void;
  /** told of every attempt on a provider, as a proxy in front of it would see it (the call ledger of trials) */
  onAttempt?: (attempt: LlmAttempt) => void;
}

export interface LlmAttempt {
  provider: string;
  /** wall-clock epoch ms */
  started_ms: number;
  ended_ms: number;
  ok: boolean;
  /** the injected llm_failure answered it */
  faulted: boolean;
  model?: string;
  usage?: LlmResponse['usage'];
}

export interface LlmClientStats {
  calls: number;
  succeeded: number;
  /** calls that ended in an error for the caller */
  failures: number;
  retries: number;
  /** calls handed to the fallback provider */
  fallbacks: number;
  /** individual failed attempts on the primary */
  primaryErrors: number;
}

export interface LlmClientConfig {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  fallbackEnabled: boolean;
  /** the careful client: a primary answer cut short, empty, refused or failing the request's check goes to the fallback */
  validate: boolean;
}

export interface LlmClient {
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** the fault: every call to the primary fails with this error type until cleared */
  injectFailure(errorType: LlmProviderErrorType): void;
  clearFailure(): void;
  /** a quiet fault: the primary answers, wrongly, until cleared (undefined) */
  injectQuiet(fault: QuietLlmFault | undefined): void;
  readonly quietFault: QuietLlmFault | undefined;
  readonly failureActive: boolean;
  readonly failureType?: LlmProviderErrorType;
  stats(): LlmClientStats;
  configure(patch: Partial<LlmClientConfig>): void;
  config(): LlmClientConfig;
  readonly primary: LlmProvider;
  readonly fallback?: LlmProvider;
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const clock = options.clock ?? systemClock;
  const { primary, fallback } = options;
  const config: LlmClientConfig = {
    retries: 2,
    backoffMs: 100,
    maxBackoffMs: 5000,
    fallbackEnabled: fallback !== undefined,
    validate: true,
  };
  const stats: LlmClientStats = { calls: 0, succeeded: 0, failures: 0, retries: 0, fallbacks: 0, primaryErrors: 0 };
  let injected: LlmProviderErrorType | undefined;
  let quiet: QuietLlmFault | undefined;
  let quietChanged = 0;

  const configure = (patch: Partial<LlmClientConfig>) => {
    for (const key of ['retries', 'backoffMs', 'maxBackoffMs'] as const) {
      const value = patch[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value) || value < 0 || (key === 'retries' && !Number.isInteger(value))) {
        throw new UsageError(
          `LLM client ${key} must be a non-negative ${key === 'retries' ? 'integer' : 'number'}, got ${value}`,
          { code: 'invalid_llm_config' },
        );
      }
      config[key] = value;
    }
    if (patch.fallbackEnabled !== undefined) config.fallbackEnabled = patch.fallbackEnabled;
    if (patch.validate !== undefined) config.validate = patch.validate;
  };
  configure({
    retries: options.retries,
    backoffMs: options.backoffMs,
    maxBackoffMs: options.maxBackoffMs,
    fallbackEnabled: options.fallbackEnabled,
    validate: options.validate,
  });

  /** one attempt on a provider, told to onAttempt however it ends; `change` is a quiet fault's edit of its answer */
  const attempt = async (
    provider: LlmProvider,
    request: LlmRequest,
    fault?: LlmProviderErrorType,
    change?: (answer: LlmResponse) => LlmResponse,
  ): Promise<LlmResponse> => {
    const started_ms = clock.wallNow().getTime();
    const tell = (ok: boolean, response?: LlmResponse) =>
      options.onAttempt?.({
        provider: provider.name,
        started_ms,
        ended_ms: clock.wallNow().getTime(),
        ok,
        faulted: fault !== undefined || change !== undefined,
        ...(response
          ? { model: response.model, usage: response.usage }
          : request.model
            ? { model: request.model }
            : {}),
      });
    try {
      if (fault) throw new LlmError(fault, `${provider.name}: injected ${fault} failure`, { provider: provider.name });
      const response = await provider.complete(request);
      const answer = change ? change(response) : response;
      tell(true, answer);
      return answer;
    } catch (error) {
      tell(false);
      throw error;
    }
  };

  const callPrimary = (request: LlmRequest) => {
    if (injected || !quiet) return attempt(primary, request, injected);
    const fault = quiet;
    return attempt(primary, request, undefined, (answer) => {
      const values: string[] = [];
      const changed = quietAnswer(fault, answer, quietChanged++, values);
      options.onChanged?.({ fault_id: fault.id, values });
      return changed;
    });
  };

  /** the careful client's look at a primary answer before it is used */
  const problemOf = (request: LlmRequest, answer: LlmResponse): string | undefined => {
    if (answer.finishReason === 'length') return 'the answer was cut short (finish_reason length)';
    if (answer.finishReason === 'refusal') return 'the model refused';
    if (answer.text.trim() === '') return 'the answer is empty';
    return request.check?.(answer.text);
  };

  const viaPrimary = async (request: LlmRequest): Promise<LlmResponse> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await callPrimary(request);
        const problem = config.validate ? problemOf(request, answer) : undefined;
        // not the provider failing: a retry of the same model gives the same wrong answer, the fallback may not
        if (problem) throw new LlmError('invalid_response', `${primary.name}: ${problem}`, { provider: primary.name });
        return answer;
      } catch (error) {
        if (!(error instanceof LlmError)) throw error; // cancellation, bad request shape: not the provider's fault
        stats.primaryErrors++;
        if (!error.retryable || attempt >= config.retries) throw error;
        stats.retries++;
        const backoff = Math.max(config.backoffMs * 2 ** attempt, error.retryAfterMs ?? 0);
        await clock.sleep(Math.min(backoff, config.maxBackoffMs), request.signal);
      }
    }
  };

  return {
    async complete(request) {
      stats.calls++;
      try {
        const response = await viaPrimary(request);
        stats.succeeded++;
        return response;
      } catch (error) {
        if (!(error instanceof LlmError) || !fallback || !config.fallbackEnabled) {
          stats.failures++;
          throw error;
        }
        stats.fallbacks++;
        try {
          const response = await attempt(fallback, request);
          stats.succeeded++;
          return response;
        } catch (fallbackError) {
          stats.failures++;
          throw fallbackError;
        }
      }
    },
    injectFailure(errorType) {
      injected = errorType;
    },
    clearFailure() {
      injected = undefined;
    },
    injectQuiet(fault) {
      quiet = fault;
    },
    get quietFault() {
      return quiet;
    },
    get failureActive() {
      return injected !== undefined;
    },
    get failureType() {
      return injected;
    },
    stats: () => ({ ...stats }),
    configure,
    config: () => ({ ...config }),
    primary,
    fallback,
  };
}
