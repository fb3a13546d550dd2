/**
 * `stop_when` (DESIGN §16): the conditions that end a run early because the system is being hurt.
 * One zod schema serves a scenario's `config.stop_when`, `--stop-when` on survival (and trials) and
 * the published JSON Schema; `parseStopWhen` turns it into the evaluator's plain data.
 */
import { z } from 'zod';
import { UsageError } from '../../shared/errors.js';
import { durationSchema, formatSegments, parseProblems, says } from '../../shared/zod-problems.js';
import type { StopCondition, StopWhen } from './types.js';

/** the longest pause between two checks of a condition: the contract's "at least every 250 ms" */
export const MAX_CHECK_EVERY_MS = 250;

const positive = (what: string) => z.number(says(`must be ${what}`)).refine((n) => n > 0, `must be ${what}`);
const count = z
  .number(says('must be an integer ≥ 1'))
  .int(says('must be an integer ≥ 1'))
  .min(1, says('must be an integer ≥ 1'));
const window = durationSchema().refine((ms) => ms > 0, 'must be greater than 0');
const every = durationSchema().refine((ms) => ms > 0, 'must be greater than 0');
const httpUrl = z
  .string(says('must be an http:// or https:// URL'))
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL');
const envName = z
  .string(says('must be the name of an environment variable'))
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');
const headers = z.record(z.string(), z.string(says('must be a string')), says('must be a mapping of header: value'));

const availabilityBelow = z.strictObject({
  value: z
    .number(says('must be a percentage from 0 to 100'))
    .min(0, says('must be a percentage from 0 to 100'))
    .max(100, says('must be a percentage from 0 to 100')),
  window: window.describe('the sliding window the availability is measured over, e.g. 5s'),
  min_requests: count.optional().describe('requests the window needs before it can trip (default 1)'),
});

const probeFailures = z
  .strictObject({
    agent: z.string(says('must be an agent id')).min(1, 'must be an agent id').optional(),
    url: httpUrl.optional(),
    count: count.describe('consecutive failed checks that trip it'),
    every: every.optional().describe(`how often it is probed (default and longest ${MAX_CHECK_EVERY_MS}ms)`),
    timeout: window.optional().describe('how long one url probe may take (default 1s)'),
  })
  .superRefine((p, ctx) => {
    if ((p.agent === undefined) === (p.url === undefined))
      ctx.addIssue({ code: 'custom', message: 'give exactly one of agent (its health) or url (GET, 2xx/3xx passes)' });
  });

const prometheus = z
  .strictObject({
    url: httpUrl.describe('the Prometheus server, e.g. http://127.0.0.1:9090 (its /api/v1/query is asked)'),
    query: z.string(says('must be a PromQL expression')).min(1, 'must be a PromQL expression'),
    above: z.number(says('must be a number')).optional(),
    below: z.number(says('must be a number')).optional(),
    every: every.optional().describe(`how often it is queried (default ${MAX_CHECK_EVERY_MS}ms; may be longer)`),
    timeout: window.optional().describe('how long one query may take (default 2s)'),
    token_env: envName.optional().describe('the environment variable holding a bearer token'),
    headers: headers.optional(),
  })
  .superRefine((p, ctx) => {
    if ((p.above === undefined) === (p.below === undefined))
      ctx.addIssue({ code: 'custom', message: 'give exactly one of above or below' });
  });

const spendAbove = z
  .strictObject({
    tokens: positive('a number of tokens above 0').optional(),
    usd: positive('an amount above 0').optional(),
    price: z
      .strictObject({
        input: z.number(says('must be ≥ 0')).min(0, says('must be ≥ 0')),
        output: z.number(says('must be ≥ 0')).min(0, says('must be ≥ 0')),
      })
      .optional()
      .describe('USD per million input and output tokens; required with usd'),
  })
  .superRefine((p, ctx) => {
    if ((p.tokens === undefined) === (p.usd === undefined))
      ctx.addIssue({ code: 'custom', message: 'give exactly one of tokens or usd' });
    if (p.usd !== undefined && p.price === undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'usd needs price: { input, output } in USD per million tokens (the arena keeps no price list)',
        path: ['price'],
      });
  });

export const stopWhenSchema = z
  .strictObject(
    {
      availability_below: availabilityBelow.optional(),
      probe_failures: probeFailures.optional(),
      prometheus: prometheus.optional(),
      spend_above: spendAbove.optional(),
      on_error: z
        .enum(['stop', 'continue'], says('must be stop or continue'))
        .optional()
        .describe('a condition that cannot be evaluated stops the run (default) or is skipped'),
    },
    {
      // only the shape's own message: unknown keys keep the wording that lists the allowed ones
      error: (iss: { code?: string }) =>
        iss.code === 'invalid_type'
          ? 'must be a mapping of conditions, e.g. { availability_below: { value: 80, window: 5s } }'
          : undefined,
    },
  )
  .superRefine((s, ctx) => {
    const { on_error: _onError, ...conditions } = s;
    if (Object.values(conditions).every((c) => c === undefined))
      ctx.addIssue({
        code: 'custom',
        message: 'names no condition (availability_below, probe_failures, prometheus or spend_above)',
      });
  })
  .describe('end the run early, faults reverted, exit 1, when one of these holds (DESIGN §16)');

const list = <T>(v: T | undefined): T[] => (v === undefined ? [] : [v]);
const checkEvery = (ms: number | undefined) => Math.min(MAX_CHECK_EVERY_MS, ms ?? MAX_CHECK_EVERY_MS);

/** the schema's output as the evaluator takes it */
export function normaliseStopWhen(s: z.output<typeof stopWhenSchema>): StopWhen {
  const conditions: StopCondition[] = [
    ...list(s.availability_below).map(
      (a): StopCondition => ({
        kind: 'availability_below',
        value: a.value,
        windowMs: a.window,
        minRequests: a.min_requests ?? 1,
      }),
    ),
    ...list(s.probe_failures).map(
      (p): StopCondition => ({
        kind: 'probe_failures',
        ...(p.agent !== undefined ? { agent: p.agent } : { url: p.url! }),
        count: p.count,
        everyMs: checkEvery(p.every),
        timeoutMs: p.timeout ?? 1000,
      }),
    ),
    ...list(s.prometheus).map(
      (p): StopCondition => ({
        kind: 'prometheus',
        url: p.url,
        query: p.query,
        ...(p.above !== undefined ? { above: p.above } : { below: p.below! }),
        // a query slower than the contract asks is the user's choice: `every` may exceed 250 ms here
        everyMs: p.every ?? MAX_CHECK_EVERY_MS,
        timeoutMs: p.timeout ?? 2000,
        ...(p.token_env !== undefined ? { tokenEnv: p.token_env } : {}),
        headers: p.headers ?? {},
      }),
    ),
    ...list(s.spend_above).map(
      (p): StopCondition => ({
        kind: 'spend_above',
        ...(p.tokens !== undefined ? { tokens: p.tokens } : { usd: p.usd!, price: p.price! }),
      }),
    ),
  ];
  return { conditions, onError: s.on_error ?? 'stop' };
}

/** `--stop-when` and library callers: the same keys as a scenario's config.stop_when, or a UsageError naming each problem */
export function parseStopWhen(input: unknown, where = 'stop_when'): StopWhen {
  const { data, problems } = parseProblems(stopWhenSchema, input, {
    unknownKey: (key, allowed) => `unknown key "${key}" (allowed: ${allowed.join(', ')})`,
  });
  if (!data) {
    const lines = problems.map((p) => `${formatSegments([where, ...p.segments])}: ${p.message}`);
    throw new UsageError(`invalid ${where}:\n  ${lines.join('\n  ')}`, { code: 'invalid_stop_when', details: lines });
  }
  return normaliseStopWhen(data);
}

/** "availability_below 80% over 2s": how a condition is named in reports and output */
export function describeCondition(c: StopCondition): string {
  switch (c.kind) {
    case 'availability_below':
      return `availability_below ${c.value}% over ${c.windowMs}ms`;
    case 'probe_failures':
      return `probe_failures ${c.agent ?? c.url} ×${c.count}`;
    case 'prometheus':
      return `prometheus ${c.query} ${c.above !== undefined ? `> ${c.above}` : `< ${c.below}`}`;
    case 'spend_above':
      return c.tokens !== undefined ? `spend_above ${c.tokens} tokens` : `spend_above $${c.usd}`;
  }
}
