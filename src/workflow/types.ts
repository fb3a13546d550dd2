/**
 * The workflow contract: a workflow is a DAG of steps, each executed by an agent
 * of the step's `agent_type` (resolved through an AgentRegistry). Plain data, so
 * a YAML file can hold a definition and the runtime can hand over a live copy.
 */

export const WORKFLOW_STATUS = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUS)[keyof typeof WORKFLOW_STATUS];

export const STEP_STATUS = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
} as const;
export type StepStatus = (typeof STEP_STATUS)[keyof typeof STEP_STATUS];

/**
 * What happens when a step attempt fails:
 * - `retry`: run the step again with the same agent, up to `retries` more times;
 * - `replace_node`: discard the agent, build a fresh one from the registry's factory, then retry;
 * - `fail_fast`: no retries; the first failure fails the workflow and aborts running steps.
 */
export const RECOVERY_STRATEGY = {
  retry: 'retry',
  replace_node: 'replace_node',
  fail_fast: 'fail_fast',
} as const;
export type RecoveryStrategy = (typeof RECOVERY_STRATEGY)[keyof typeof RECOVERY_STRATEGY];

export interface StepDefinition {
  id: string;
  agent_type: string;
  depends_on?: string[];
  /** static input handed to the agent as `ctx.step.input` */
  input?: unknown;
  /** per-attempt timeout; the agent's signal aborts when it expires */
  timeout_ms?: number;
  /** extra attempts after the first failure (ignored under `fail_fast`) */
  retries?: number;
}

export interface WorkflowDefinition {
  id: string;
  name?: string;
  description?: string;
  steps: StepDefinition[];
  /** default `retry` */
  recovery?: RecoveryStrategy;
  max_parallel?: number;
  /** whole-run timeout */
  timeout_ms?: number;
  /** the step whose output is the workflow's output (default: the single sink, or a map of all sinks) */
  output_step?: string;
}

/** Names used by the public API (issue 7). */
export type Workflow = WorkflowDefinition;
export type Step = StepDefinition;

export interface StepContext {
  step: StepDefinition;
  workflowInput: unknown;
  /** outputs of the steps this one depends on, by step id */
  inputs: Record<string, unknown>;
  /** aborted on step timeout, workflow cancellation or fail-fast */
  signal: AbortSignal;
  /** 1 for the first attempt */
  attempt: number;
}

export interface StepAgent {
  execute(ctx: StepContext): Promise<unknown>;
}

export type AgentFactory = (step: StepDefinition) => StepAgent;

export interface StepResult {
  step_id: string;
  agent_type: string;
  status: StepStatus;
  output?: unknown;
  error?: string;
  /** attempts made (0 if never started) */
  attempts: number;
  /** agents re-created by `replace_node` */
  replacements: number;
  started_at?: string;
  duration_ms: number;
}

export interface WorkflowRunResult {
  execution_id: string;
  workflow_id: string;
  status: WorkflowStatus;
  /** null unless completed */
  output: unknown;
  steps: StepResult[];
  error?: string;
  started_at: string;
  duration_ms: number;
}

interface EventBase {
  execution_id: string;
  workflow_id: string;
  /** ISO wall-clock time */
  at: string;
}

/** Emitted in real time while a workflow runs. */
export type WorkflowEvent =
  | (EventBase & { type: 'workflow.started'; input: unknown })
  | (EventBase & { type: 'step.started'; step_id: string; agent_type: string; attempt: number })
  | (EventBase & { type: 'step.completed'; step_id: string; output: unknown; attempts: number; duration_ms: number })
  | (EventBase & { type: 'step.failed'; step_id: string; error: string; attempt: number; will_retry: boolean })
  | (EventBase & { type: 'step.skipped'; step_id: string; reason: string })
  | (EventBase & { type: 'workflow.completed'; output: unknown; duration_ms: number })
  | (EventBase & { type: 'workflow.failed'; error: string; duration_ms: number })
  | (EventBase & { type: 'workflow.cancelled'; error: string; duration_ms: number });

export type WorkflowEventType = WorkflowEvent['type'];
