/**
 * What an agent talks to: a primary provider with retries and exponential
 * backoff (on the injected clock), then a fallback provider. The `llm_failure`
 * fault acts on the primary only, so with a fallback the client keeps serving.
 */
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { LLMError, type LLMErrorType, type LLMProvider, type LLMRequest, type LLMResponse } from './types.js';

export interface LLMClientOptions {
  primary: LLMProvider;
  fallback?: LLMProvider;
  /** extra attempts on the primary after a retryable error; default 2 */
  retries?: number;
  /** first backoff; doubles each retry; default 100 */
  backoffMs?: number;
  /** cap on one backoff (also on a server's Retry-After); default 5000 */
  maxBackoffMs?: number;
  /** default true when a fallback is given */
  fallbackEnabled?: boolean;
  clock?: Clock;
  /** told of every attempt on a provider, as a proxy in front of it would see it (the call ledger of trials) */
  onAttempt?: (attempt: LLMAttempt) => void;
}

export interface LLMAttempt {
  provider: string;
  /** wall-clock epoch ms */
  started_ms: number;
  ended_ms: number;
  ok: boolean;
  /** the injected llm_failure answered it */
  faulted: boolean;
  model?: string;
  usage?: LLMResponse['usage'];
}

export interface LLMClientStats {
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

export interface LLMClientConfig {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  fallbackEnabled: boolean;
}

export interface LLMClient {
  complete(request: LLMRequest): Promise<LLMResponse>;
  /** the fault: every call to the primary fails with this error type until cleared */
  injectFailure(errorType: LLMErrorType): void;
  clearFailure(): void;
  readonly failureActive: boolean;
  readonly failureType?: LLMErrorType;
  stats(): LLMClientStats;
  configure(patch: Partial<LLMClientConfig>): void;
  config(): LLMClientConfig;
  readonly primary: LLMProvider;
  readonly fallback?: LLMProvider;
}

export function createLLMClient(options: LLMClientOptions): LLMClient {
  const clock = options.clock ?? systemClock;
  const { primary, fallback } = options;
  const config: LLMClientConfig = {
    retries: 2,
    backoffMs: 100,
    maxBackoffMs: 5000,
    fallbackEnabled: fallback !== undefined,
  };
  const stats: LLMClientStats = { calls: 0, succeeded: 0, failures: 0, retries: 0, fallbacks: 0, primaryErrors: 0 };
  let injected: LLMErrorType | undefined;

  const configure = (patch: Partial<LLMClientConfig>) => {
    for (const key of ['retries', 'backoffMs', 'maxBackoffMs'] as const) {
      const value = patch[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value) || value < 0 || (key === 'retries' && !Number.isInteger(value))) {
        throw new UsageError(
          `LLM client ${key} must be a non-negative ${key === 'retries' ? 'integer' : 'number'}, got ${value}`,
          'invalid_llm_config',
        );
      }
      config[key] = value;
    }
    if (patch.fallbackEnabled !== undefined) config.fallbackEnabled = patch.fallbackEnabled;
  };
  configure({
    retries: options.retries,
    backoffMs: options.backoffMs,
    maxBackoffMs: options.maxBackoffMs,
    fallbackEnabled: options.fallbackEnabled,
  });

  /** one attempt on a provider, told to onAttempt however it ends */
  const attempt = async (provider: LLMProvider, request: LLMRequest, fault?: LLMErrorType): Promise<LLMResponse> => {
    const started_ms = clock.wallNow().getTime();
    const tell = (ok: boolean, response?: LLMResponse) =>
      options.onAttempt?.({
        provider: provider.name,
        started_ms,
        ended_ms: clock.wallNow().getTime(),
        ok,
        faulted: fault !== undefined,
        ...(response
          ? { model: response.model, usage: response.usage }
          : request.model
            ? { model: request.model }
            : {}),
      });
    try {
      if (fault) throw new LLMError(fault, `${provider.name}: injected ${fault} failure`, { provider: provider.name });
      const response = await provider.complete(request);
      tell(true, response);
      return response;
    } catch (error) {
      tell(false);
      throw error;
    }
  };

  const callPrimary = (request: LLMRequest) => attempt(primary, request, injected);

  const viaPrimary = async (request: LLMRequest): Promise<LLMResponse> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await callPrimary(request);
      } catch (error) {
        if (!(error instanceof LLMError)) throw error; // cancellation, bad request shape: not the provider's fault
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
        if (!(error instanceof LLMError) || !fallback || !config.fallbackEnabled) {
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
