/**
 * The LLM layer's contract: a provider completes a chat; failures are
 * LlmErrors whose `errorType` says what went wrong and whether a retry can help.
 */
import type { LoudLlmErrorType as FaultErrorType } from '../../protocol/llm-faults.js';
import { RuntimeError } from '../../shared/errors.js';

export type LlmRole = 'system' | 'user' | 'assistant';

export interface LlmMessage {
  role: LlmRole;
  content: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  model?: string;
  maxTokens?: number;
  signal?: AbortSignal;
  /** what the caller knows a right answer looks like: why this text is not one, or undefined (a careful client checks) */
  check?(text: string): string | undefined;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface LlmResponse {
  text: string;
  /** name of the provider that produced the text (tells a fallback answer apart) */
  provider: string;
  model: string;
  usage: LlmUsage;
  /** why the answer ended: `length` when it was cut short, `refusal` when the model refused; `stop` when absent */
  finishReason?: 'stop' | 'length' | 'refusal';
}

export interface LlmProvider {
  readonly name: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}

/** the loud fault types the embedded runtime applies (../../protocol/llm-faults.ts) plus what real providers also do */
export type LlmProviderErrorType = FaultErrorType | 'network' | 'auth' | 'bad_request' | 'invalid_response';

const RETRYABLE: ReadonlySet<LlmProviderErrorType> = new Set([
  'rate_limit',
  'overloaded',
  'timeout',
  'server_error',
  'network',
]);

export interface LlmErrorOptions {
  provider?: string;
  status?: number;
  /** from a Retry-After header */
  retryAfterMs?: number;
  cause?: unknown;
}

export class LlmError extends RuntimeError {
  readonly errorType: LlmProviderErrorType;
  readonly retryable: boolean;
  readonly provider?: string;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;

  constructor(errorType: LlmProviderErrorType, message: string, options: LlmErrorOptions = {}) {
    super(message, { code: `llm_${errorType}`, cause: options.cause });
    this.errorType = errorType;
    this.retryable = RETRYABLE.has(errorType);
    this.provider = options.provider;
    this.httpStatus = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** maps an HTTP error status to its error type */
export function errorTypeForStatus(status: number): LlmProviderErrorType {
  if (status === 429) return 'rate_limit';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server_error';
  if (status === 401 || status === 403) return 'auth';
  return 'bad_request';
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}

/** rough whitespace token count; enough for usage accounting without a tokenizer */
export function countTokens(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
