/**
 * Workflows served by the root: a WorkflowService whose step agents are the
 * runtime services (retrieval, LLM, evaluators, conversation memory), with one
 * built-in workflow that answers a question from the document store.
 */
import { AgentRegistry, WorkflowService, type StepContext, type WorkflowDefinition } from '../workflow/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, UsageError } from '../shared/errors.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { EvalRunner } from '../runtime/services/eval.js';
import type { LlmPort } from './types.js';

export interface WorkflowsPort {
  list(): unknown[];
  get(id: string): unknown;
  register(definition: Record<string, unknown>): unknown;
  execute(id: string, input: unknown, signal?: AbortSignal): Promise<unknown>;
  executions(id: string): unknown[];
  /** agent types steps may use */
  agentTypes(): string[];
}

export const ANSWER_WORKFLOW: WorkflowDefinition = {
  id: 'answer-question',
  name: 'Answer a question',
  description: 'retrieve context for input.question, answer it with the LLM, check the answer is not empty',
  steps: [
    { id: 'retrieve', agent_type: 'retrieve', input: { top_k: 3 } },
    { id: 'answer', agent_type: 'llm', depends_on: ['retrieve'] },
    {
      id: 'check',
      agent_type: 'evaluate',
      depends_on: ['answer'],
      input: { evaluators: ['length'], options: { min: 1 } },
    },
  ],
  recovery: 'retry',
  output_step: 'check',
};

function question(ctx: StepContext): string {
  const input = ctx.workflowInput as { question?: unknown; query?: unknown } | undefined;
  const q = input?.question ?? input?.query;
  if (typeof q !== 'string' || q.trim() === '')
    throw new UsageError(`step ${ctx.step.id}: workflow input needs "question" (a string)`, { code: 'invalid_input' });
  return q;
}

function stepInput(ctx: StepContext): Record<string, unknown> {
  return (ctx.step.input && typeof ctx.step.input === 'object' ? ctx.step.input : {}) as Record<string, unknown>;
}

export function createWorkflows(deps: {
  clock: Clock;
  retrieval: RetrievalIndex;
  llm: LlmPort;
  evaluators: EvalRunner;
}): WorkflowsPort {
  const registry = new AgentRegistry();
  registry.register('retrieve', () => ({
    async execute(ctx) {
      const topK = Number(stepInput(ctx).top_k ?? 3);
      return {
        question: question(ctx),
        hits: deps.retrieval.search(question(ctx), topK).map(({ id, score, text }) => ({ id, score, text })),
      };
    },
  }));
  registry.register('llm', () => ({
    async execute(ctx) {
      const context = Object.values(ctx.inputs)
        .flatMap((o) => ((o as { hits?: Array<{ text: string }> })?.hits ?? []).map((h) => `- ${h.text}`))
        .join('\n');
      const prompt = typeof stepInput(ctx).prompt === 'string' ? (stepInput(ctx).prompt as string) : question(ctx);
      const response = await deps.llm.complete(
        {
          messages: [
            { role: 'system', content: context ? `Answer using this context:\n${context}` : 'Answer briefly.' },
            { role: 'user', content: prompt },
          ],
        },
        ctx.signal,
      );
      return { text: response.text, provider: response.provider, model: response.model };
    },
  }));
  registry.register('evaluate', () => ({
    async execute(ctx) {
      const input = stepInput(ctx);
      const previous = Object.values(ctx.inputs).find((o) => typeof (o as { text?: unknown })?.text === 'string') as
        | { text: string }
        | undefined;
      if (!previous)
        throw new UsageError(`step ${ctx.step.id}: evaluate needs a dependency that produced {text}`, {
          code: 'invalid_input',
        });
      const evaluators = Array.isArray(input.evaluators) ? (input.evaluators as string[]) : ['length'];
      const result = deps.evaluators.evaluate({
        evaluators,
        output: previous.text,
        expected: input.expected,
        options: (input.options ?? {}) as Record<string, unknown>,
      });
      return { text: previous.text, evaluation: result };
    },
  }));
  registry.register('echo', () => ({
    async execute(ctx) {
      return { input: ctx.workflowInput, inputs: ctx.inputs, step_input: ctx.step.input ?? null };
    },
  }));
  const service = new WorkflowService({ agentRegistry: registry, clock: deps.clock });
  service.registerWorkflow(ANSWER_WORKFLOW);
  const executionsByWorkflow = new Map<string, string[]>();

  return {
    list: () => service.listWorkflows(),
    get: (id) => service.getWorkflow(id),
    register: (definition) => service.registerWorkflow(definition as unknown as WorkflowDefinition),
    async execute(id, input, signal) {
      if (!service.hasWorkflow(id)) throw new NotFoundError(`unknown workflow '${id}'`, { code: 'workflow_not_found' });
      const response = await service.execute({ workflow_id: id, input, ...(signal ? { signal } : {}) });
      const list = executionsByWorkflow.get(id) ?? [];
      list.push(response.execution_id);
      if (list.length > 100) list.shift();
      executionsByWorkflow.set(id, list);
      return response;
    },
    executions(id) {
      if (!service.hasWorkflow(id)) throw new NotFoundError(`unknown workflow '${id}'`, { code: 'workflow_not_found' });
      return (executionsByWorkflow.get(id) ?? []).flatMap((e) => {
        try {
          return [service.getExecution(e)];
        } catch {
          return [];
        }
      });
    },
    agentTypes: () => registry.types(),
  };
}
