/**
 * The shapes of the safety settings and of what a stop reports, free of imports, so that report and
 * scenario types (read by the web console too) need none of the evaluator's modules.
 */
export type StopCondition =
  | { kind: 'availability_below'; value: number; windowMs: number; minRequests: number }
  | {
      kind: 'probe_failures';
      agent?: string;
      url?: string;
      count: number;
      everyMs: number;
      timeoutMs: number;
    }
  | {
      kind: 'prometheus';
      url: string;
      query: string;
      above?: number;
      below?: number;
      everyMs: number;
      timeoutMs: number;
      tokenEnv?: string;
      headers: Record<string, string>;
    }
  | { kind: 'spend_above'; tokens?: number; usd?: number; price?: { input: number; output: number } };

export interface StopWhen {
  conditions: StopCondition[];
  onError: 'stop' | 'continue';
}

export interface StoppedBy {
  /** the condition with its parameters: "availability_below 80% over 2000ms" */
  condition: string;
  kind: StopCondition['kind'];
  /** what was measured when it tripped; null when it could not be evaluated (on_error: stop) */
  value: number | null;
  /** ms since the run started */
  at_ms: number;
  reason: string;
}

/** under `on_error: continue`: a condition that could not be evaluated, how often, and the last reason */
export interface StopCheckError {
  condition: string;
  count: number;
  last: string;
}

/** `config.max_affected`: a count of agents, or a share of them */
export type MaxAffected = { count: number } | { percent: number };
