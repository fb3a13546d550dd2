/**
 * Built-in workflow agent types, so a workflow file runs through the client
 * without writing code: `echo`, `llm` (a prompt to the LLM service), `agent`
 * (a query to a configured agent) and `retrieve` (a search in the retrieval service).
 */
import { UsageError } from '../shared/errors.js';
import { AgentRegistry } from '../workflow/registry.js';
import type { StepContext } from '../workflow/types.js';
import type { LlmClient } from '../runtime/llm/index.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { AgentService } from './agent-service.js';

export interface BuiltinAgentServices {
  llm?: () => LlmClient;
  agents?: () => AgentService;
  retrieval?: () => RetrievalIndex;
}

/** `{{input}}` → the workflow input, `{{steps.ID}}` → that dependency's output */
export function renderTemplate(template: string, ctx: StepContext): string {
  return template.replace(/\{\{\s*(input|steps\.([A-Za-z0-9_.-]+))\s*\}\}/g, (_, _whole: string, stepId?: string) =>
    text(stepId === undefined ? ctx.workflowInput : ctx.inputs[stepId]),
  );
}

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** the step's text: `input` (string or `{prompt}`), rendered; else the workflow input and dependency outputs */
function promptOf(ctx: StepContext, field = 'prompt'): string {
  const input = ctx.step.input;
  const template =
    typeof input === 'string'
      ? input
      : typeof input === 'object' && input !== null
        ? (input as Record<string, unknown>)[field]
        : undefined;
  if (typeof template === 'string') return renderTemplate(template, ctx);
  const deps = Object.values(ctx.inputs).map(text);
  return [text(ctx.workflowInput), ...deps].filter(Boolean).join('\n');
}

function option(ctx: StepContext, key: string): unknown {
  const input = ctx.step.input;
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
}

export function createBuiltinRegistry(services: BuiltinAgentServices): AgentRegistry {
  const registry = new AgentRegistry();
  registry.register('echo', () => ({
    execute: async (ctx) => (ctx.step.input !== undefined ? renderAny(ctx.step.input, ctx) : ctx.workflowInput),
  }));
  if (services.llm) {
    const llm = services.llm;
    registry.register('llm', () => ({
      async execute(ctx) {
        const system = option(ctx, 'system');
        const messages = [
          ...(typeof system === 'string' ? [{ role: 'system' as const, content: renderTemplate(system, ctx) }] : []),
          { role: 'user' as const, content: promptOf(ctx) || 'hello' },
        ];
        const maxTokens = option(ctx, 'max_tokens');
        return (
          await llm().complete({
            messages,
            signal: ctx.signal,
            maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
          })
        ).text;
      },
    }));
  }
  if (services.agents) {
    const agents = services.agents;
    registry.register('agent', () => ({
      async execute(ctx) {
        const service = agents();
        const agentId = option(ctx, 'agent');
        const query =
          typeof option(ctx, 'query') === 'string'
            ? renderTemplate(option(ctx, 'query') as string, ctx)
            : promptOf(ctx);
        return (
          await service.execute(typeof agentId === 'string' ? agentId : service.defaultAgentId, query, {
            signal: ctx.signal,
          })
        ).text;
      },
    }));
  }
  if (services.retrieval) {
    const retrieval = services.retrieval;
    registry.register('retrieve', () => ({
      async execute(ctx) {
        const topK = option(ctx, 'top_k');
        const query =
          typeof option(ctx, 'query') === 'string'
            ? renderTemplate(option(ctx, 'query') as string, ctx)
            : promptOf(ctx, 'query');
        if (!query)
          throw new UsageError(`step '${ctx.step.id}': retrieve needs a query`, { code: 'invalid_step_input' });
        return retrieval().search(query, typeof topK === 'number' ? topK : 3);
      },
    }));
  }
  return registry;
}

/** renders templates in a string, or in every string of an object/list */
function renderAny(v: unknown, ctx: StepContext): unknown {
  if (typeof v === 'string') return renderTemplate(v, ctx);
  if (Array.isArray(v)) return v.map((x) => renderAny(x, ctx));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renderAny(x, ctx)]));
  return v;
}
