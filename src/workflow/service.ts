import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../shared/clock.js';
import { ConflictError, NotFoundError, RuntimeError, UsageError } from '../shared/errors.js';
import { executeWorkflow } from './engine.js';
import { EventQueue } from './event-queue.js';
import type { AgentRegistry } from './registry.js';
import type { StepResult, WorkflowDefinition, WorkflowEvent, WorkflowRunResult, WorkflowStatus } from './types.js';
import { assertValidWorkflow } from './validate.js';

export interface WorkflowServiceOptions {
  agentRegistry: AgentRegistry;
  clock?: Clock;
  /** concurrency cap for steps of one execution (a definition's `max_parallel` may lower it) */
  maxParallel?: number;
  /** timeout for steps that set none */
  defaultStepTimeoutMs?: number;
  /** how many finished executions `getExecution` remembers (default 100) */
  historyLimit?: number;
}

export interface WorkflowRequest {
  workflow_id: string;
  input?: unknown;
  execution_id?: string;
  signal?: AbortSignal;
}

export interface WorkflowResponse {
  execution_id: string;
  workflow_id: string;
  /** `completed`, `failed` or `cancelled`: test this, not `error` */
  status: WorkflowStatus;
  /** null unless completed */
  output: unknown;
  steps: StepResult[];
  error: string | null;
  started_at: string;
  duration_ms: number;
}

export interface WorkflowSummary {
  id: string;
  name?: string;
  description?: string;
  steps: number;
}

/** Registered workflows, executed on the service's agent registry. */
export class WorkflowService {
  readonly agentRegistry: AgentRegistry;
  private readonly clock: Clock;
  private readonly workflows = new Map<string, WorkflowDefinition>();
  private readonly executions = new Map<string, WorkflowResponse>();
  private readonly active = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly options: WorkflowServiceOptions) {
    if (!options?.agentRegistry) throw new UsageError('WorkflowService needs an agentRegistry');
    this.agentRegistry = options.agentRegistry;
    this.clock = options.clock ?? systemClock;
  }

  /** validates against the registry; invalid → UsageError, id taken → ConflictError */
  registerWorkflow(definition: WorkflowDefinition): WorkflowDefinition {
    const def = assertValidWorkflow(
      definition,
      { registry: this.agentRegistry },
      definition?.id ? `workflow '${definition.id}'` : undefined,
    );
    if (this.workflows.has(def.id))
      throw new ConflictError(`workflow '${def.id}' is already registered`, { code: 'workflow_exists' });
    const copy = structuredClone(def);
    this.workflows.set(def.id, copy);
    return structuredClone(copy);
  }

  unregisterWorkflow(id: string): boolean {
    return this.workflows.delete(id);
  }

  listWorkflows(): WorkflowSummary[] {
    return [...this.workflows.values()].map((w) => ({
      id: w.id,
      ...(w.name !== undefined ? { name: w.name } : {}),
      ...(w.description !== undefined ? { description: w.description } : {}),
      steps: w.steps.length,
    }));
  }

  getWorkflow(id: string): WorkflowDefinition {
    const def = this.workflows.get(id);
    if (!def) throw new NotFoundError(`unknown workflow '${id}'`, { code: 'workflow_not_found' });
    return structuredClone(def);
  }

  hasWorkflow(id: string): boolean {
    return this.workflows.has(id);
  }

  /** runs to the end; a failed run resolves with `status: 'failed'` */
  async execute(request: WorkflowRequest): Promise<WorkflowResponse> {
    return this.run(request);
  }

  /**
   * Events of one execution, delivered as they happen. Unknown workflow →
   * NotFoundError at once. Stopping iteration early cancels the execution.
   */
  executeStream(request: WorkflowRequest): AsyncIterable<WorkflowEvent> {
    this.definitionFor(request);
    const controller = new AbortController();
    const queue = new EventQueue<WorkflowEvent>(() => controller.abort(new Error('stream consumer went away')));
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    this.run({ ...request, signal }, (e) => queue.push(e)).then(
      () => queue.end(),
      (err: unknown) => queue.end(err),
    );
    return queue;
  }

  getExecution(executionId: string): WorkflowResponse {
    const r = this.executions.get(executionId);
    if (!r) throw new NotFoundError(`unknown execution '${executionId}'`, { code: 'execution_not_found' });
    return r;
  }

  /** cancels a running execution; false if it is not running */
  cancel(executionId: string): boolean {
    const c = this.active.get(executionId);
    c?.abort(new Error('cancelled by request'));
    return c !== undefined;
  }

  /** cancels running executions and refuses new ones */
  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.active.values()) c.abort(new Error('workflow service closed'));
  }

  private definitionFor(request: WorkflowRequest): WorkflowDefinition {
    if (this.closed) throw new RuntimeError('the workflow service is closed', { code: 'service_closed' });
    if (!request || typeof request.workflow_id !== 'string')
      throw new UsageError('request.workflow_id is required', { code: 'invalid_request' });
    return this.getWorkflow(request.workflow_id);
  }

  private async run(request: WorkflowRequest, onEvent?: (e: WorkflowEvent) => void): Promise<WorkflowResponse> {
    const def = this.definitionFor(request);
    const executionId = request.execution_id ?? randomUUID();
    if (this.active.has(executionId) || this.executions.has(executionId)) {
      throw new ConflictError(`execution id '${executionId}' is already used`, { code: 'execution_exists' });
    }
    const controller = new AbortController();
    this.active.set(executionId, controller);
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    try {
      const result = await executeWorkflow(def, {
        registry: this.agentRegistry,
        input: request.input,
        signal,
        clock: this.clock,
        maxParallel: this.options.maxParallel,
        defaultStepTimeoutMs: this.options.defaultStepTimeoutMs,
        executionId,
        onEvent,
      });
      const response = toResponse(result);
      this.remember(response);
      return response;
    } finally {
      this.active.delete(executionId);
    }
  }

  private remember(response: WorkflowResponse): void {
    this.executions.set(response.execution_id, response);
    const limit = this.options.historyLimit ?? 100;
    while (this.executions.size > limit) this.executions.delete(this.executions.keys().next().value!);
  }
}

function toResponse(r: WorkflowRunResult): WorkflowResponse {
  return {
    execution_id: r.execution_id,
    workflow_id: r.workflow_id,
    status: r.status,
    output: r.output,
    steps: r.steps,
    error: r.error ?? null,
    started_at: r.started_at,
    duration_ms: r.duration_ms,
  };
}
