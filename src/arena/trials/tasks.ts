/**
 * What a target offers trials (DESIGN §14): its tasks (a request with a graded answer), the tools whose
 * duplicate calls are defects, and prices. Each target kind implements it; the arena only runs tasks
 * and reads the answer's verdict.
 */
export interface TrialTaskInfo {
  id: string;
  /** tool globs the task needs: an answer that passes while none of them succeeded is a false success */
  needs?: string[];
}

/** how the arena marks a trial's request, for the agent to forward on its LLM and tool calls */
export interface TrialMark {
  /** sent as `x-arena-trial` */
  trial: string;
  /** a W3C `traceparent` whose trace id is the trial's own */
  traceparent: string;
  signal?: AbortSignal;
}

export interface TrialAnswer {
  /** the answer met the task's expectation */
  passed: boolean;
  /** why not, when it did not */
  detail?: string;
}

export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}

export interface TrialTasks {
  readonly tasks: readonly TrialTaskInfo[];
  /** tool globs whose duplicate calls in one trial are defects */
  readonly sideEffects: readonly string[];
  readonly prices: Readonly<Record<string, ModelPrice>>;
  /** runs one try of a task; resolves with the verdict (a failed request is a failed trial, not a throw) */
  run(taskId: string, mark: TrialMark): Promise<TrialAnswer>;
}
