/** Request parsing for the arena routes that take more than an action: scenario runs and survival. */
import { UsageError } from '../shared/errors.js';
import { asObject } from './groups/input.js';
import type { SurvivalRequest } from './arena-handler.js';

/** `?seed=N&time_scale=0.1` */
export function scenarioRunOptions(query: URLSearchParams): { seed?: number; timeScale?: number } {
  const options: { seed?: number; timeScale?: number } = {};
  const seed = query.get('seed');
  if (seed !== null) {
    if (!/^\d+$/.test(seed)) throw new UsageError(`query parameter seed must be a non-negative integer, got "${seed}"`, 'invalid_input');
    options.seed = Number(seed);
  }
  const scale = query.get('time_scale');
  if (scale !== null) {
    const n = Number(scale);
    if (!(Number.isFinite(n) && n > 0 && n <= 10)) throw new UsageError(`query parameter time_scale must be a number above 0 and at most 10, got "${scale}"`, 'invalid_input');
    options.timeScale = n;
  }
  return options;
}

export function parseSurvivalRequest(value: unknown): SurvivalRequest {
  const body = asObject(value ?? {});
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if (!['duration', 'interval', 'seed', 'actions'].includes(key)) problems.push(`body.${key}: unknown key (survival takes duration, interval, seed, actions)`);
  }
  const duration = body.duration ?? '60s';
  const interval = body.interval ?? '2s';
  if (typeof duration !== 'string' && typeof duration !== 'number') problems.push('body.duration must be a duration such as "30s" or milliseconds');
  if (typeof interval !== 'string' && typeof interval !== 'number') problems.push('body.interval must be a duration such as "2s" or milliseconds');
  if (body.seed !== undefined && !(Number.isInteger(body.seed) && (body.seed as number) >= 0)) problems.push('body.seed must be a non-negative integer');
  let actions: string[] | undefined;
  if (body.actions !== undefined) {
    if (typeof body.actions === 'string') actions = body.actions.split(',').map((s) => s.trim()).filter(Boolean);
    else if (Array.isArray(body.actions) && body.actions.every((a) => typeof a === 'string')) actions = body.actions as string[];
    else problems.push('body.actions must be an array of action types or a comma-separated string');
  }
  if (problems.length) throw new UsageError(`invalid survival request: ${problems.join('; ')}`, 'invalid_input', { details: problems });
  const request: SurvivalRequest = { duration: duration as string | number, interval: interval as string | number };
  if (body.seed !== undefined) request.seed = body.seed as number;
  if (actions) request.actions = actions;
  return request;
}
