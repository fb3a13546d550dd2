/** Eval group: list evaluators and evaluate an output against them. */
import { UsageError } from '../../shared/errors.js';
import type { Router } from '../router.js';
import { asObject, optionalObject, type Awaitable } from './input.js';

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

export function registerEvalRoutes(router: Router, service: EvalService): void {
  router.get('/api/v1/eval/evaluators', async () => ({ evaluators: await service.evaluators() }));
  router.post('/api/v1/eval/evaluate', async (ctx) => {
    const body = asObject(await ctx.json());
    let evaluators: string[];
    if (typeof body.evaluator === 'string') evaluators = [body.evaluator];
    else if (Array.isArray(body.evaluators) && body.evaluators.length > 0 && body.evaluators.every((e) => typeof e === 'string')) {
      evaluators = body.evaluators as string[];
    } else throw new UsageError('body.evaluator (a name) or body.evaluators (a non-empty array of names) is required', 'invalid_input');
    if (typeof body.output !== 'string') throw new UsageError('body.output is required (a string)', 'invalid_input');
    const request: EvaluationRequest = { evaluators, output: body.output };
    if (body.expected !== undefined) request.expected = body.expected;
    const options = optionalObject(body, 'options');
    if (options !== undefined) request.options = options;
    return service.evaluate(request);
  });
}
