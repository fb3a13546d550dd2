/** Request parsing for the arena routes that take more than an action: scenario runs and survival. */
import { UsageError } from '../shared/errors.js';
import { duration, parseWith, z } from './body.js';
import { ACTION_TYPES, isActionType } from '../arena/action.js';
import { normaliseStopWhen, stopWhenSchema } from '../arena/safety/stop-when.js';
import type { StopWhen } from '../arena/safety/types.js';

/** a survival run as the HTTP API asks for it (`POST /arena/survival`) */
export interface SurvivalRequest {
  duration: string | number;
  interval: string | number;
  seed?: number;
  actions?: string[];
  /** `stop_when`: the keys of a scenario's config.stop_when (DESIGN §16) */
  stopWhen?: StopWhen;
}

/** `?seed=N&time_scale=0.1` */
export function scenarioRunOptions(query: URLSearchParams): { seed?: number; timeScale?: number } {
  const options: { seed?: number; timeScale?: number } = {};
  const seed = query.get('seed');
  if (seed !== null) {
    if (!/^\d+$/.test(seed))
      throw new UsageError(`query parameter seed must be a non-negative integer, got "${seed}"`, {
        code: 'invalid_input',
      });
    options.seed = Number(seed);
  }
  const scale = query.get('time_scale');
  if (scale !== null) {
    const n = Number(scale);
    if (!(Number.isFinite(n) && n > 0 && n <= 10))
      throw new UsageError(`query parameter time_scale must be a number above 0 and at most 10, got "${scale}"`, {
        code: 'invalid_input',
      });
    options.timeScale = n;
  }
  return options;
}

export const Survival = z.strictObject({
  duration: duration().optional(),
  interval: duration().optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  actions: z.union([z.string().max(1000), z.array(z.enum(ACTION_TYPES)).max(ACTION_TYPES.length * 4)]).optional(),
  stop_when: stopWhenSchema.optional(),
});

/** POST /arena/survival: every field optional (60s, 2s), the whole body checked before a run starts */
export function parseSurvivalRequest(value: unknown): SurvivalRequest {
  const body = parseWith(Survival, value ?? {});
  const request: SurvivalRequest = { duration: body.duration ?? '60s', interval: body.interval ?? '2s' };
  if (body.seed !== undefined) request.seed = body.seed;
  if (body.stop_when !== undefined) {
    // the server's environment is not the caller's to read: a token comes in `headers`
    if (body.stop_when.prometheus?.token_env !== undefined)
      throw new UsageError(
        'body.stop_when.prometheus.token_env: not available over HTTP (the server does not read its environment for a request); send the token in prometheus.headers',
        { code: 'invalid_input' },
      );
    request.stopWhen = normaliseStopWhen(body.stop_when);
  }
  if (body.actions !== undefined) {
    const actions =
      typeof body.actions === 'string'
        ? body.actions
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean)
        : body.actions;
    const unknown = actions.filter((a) => !isActionType(a));
    if (unknown.length)
      throw new UsageError(
        `body.actions: unknown action type ${unknown.map((u) => JSON.stringify(u)).join(', ')} (one of ${ACTION_TYPES.join(', ')})`,
        { code: 'invalid_input' },
      );
    request.actions = actions;
  }
  return request;
}
