/** Eval group: list evaluators and evaluate an output against them. */
import { UsageError } from '../../shared/errors.js';
import type { Routes } from '../routes.js';
import { body, id, z } from '../body.js';
import type { Awaitable } from './input.js';

export interface EvaluatorInfo {
  name: string;
  description: string;
}

export interface EvaluationRequest {
  evaluators: string[];
  output: string;
  expected?: unknown;
  options?: Record<string, unknown>;
}

export interface EvaluationResult {
  evaluator: string;
  passed: boolean;
  score: number;
  reason: string;
}

export interface EvalService {
  evaluators(): Awaitable<EvaluatorInfo[]>;
  evaluate(request: EvaluationRequest): Awaitable<{ passed: boolean; score: number; results: EvaluationResult[] }>;
}

/** every option any evaluator reads; an option no evaluator knows is a typo, not something to ignore */
const EvalOptions = z.strictObject({
  ignore_case: z.boolean().optional(),
  trim: z.boolean().optional(),
  flags: z
    .string()
    .refine(
      (f) => f.length <= 3 && /^[ims]*$/.test(f) && new Set(f).size === f.length,
      'must be regex flags from "i", "m", "s", each at most once',
    )
    .optional(),
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
  threshold: z.number().min(0).max(1).optional(),
});
export const Evaluate = z.strictObject({
  evaluator: id().optional(),
  evaluators: z.array(id()).min(1, 'must name at least one evaluator').max(50).optional(),
  output: z.string().max(1_000_000),
  expected: z.union([z.string().max(100_000), z.array(z.string().max(100_000)).max(1000)]).optional(),
  options: EvalOptions.optional(),
});

export function registerEvalRoutes(router: Routes, service: EvalService): void {
  router.get('/api/v1/eval/evaluators', async () => ({ evaluators: await service.evaluators() }));
  router.post('/api/v1/eval/evaluate', async (ctx) => {
    const input = await body(ctx, Evaluate);
    if ((input.evaluator === undefined) === (input.evaluators === undefined)) {
      throw new UsageError(
        'body.evaluator (a name) or body.evaluators (a non-empty array of names) is required, not both',
        { code: 'invalid_input' },
      );
    }
    const request: EvaluationRequest = { evaluators: input.evaluators ?? [input.evaluator!], output: input.output };
    if (input.expected !== undefined) request.expected = input.expected;
    if (input.options !== undefined)
      request.options = Object.fromEntries(Object.entries(input.options).filter(([, v]) => v !== undefined));
    return service.evaluate(request);
  });
}
