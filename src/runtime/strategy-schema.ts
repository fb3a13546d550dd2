/**
 * The recovery strategy file, described once (zod): it validates strategy
 * files and data, gives the `Strategy` type, and is the published JSON Schema
 * (`arena schema strategy`). Every section and field may be left out of a file
 * (the default fills it); the relations between fields are checked after the
 * merge (`crossProblems` in strategy.ts), since they need the whole strategy.
 */
import { z } from 'zod';
import { publishedJsonSchema } from '../shared/json-schema.js';
import { durationSchema, says, typeName } from '../shared/zod-problems.js';

export const WORKFLOW_RECOVERY = ['retry', 'replace_node', 'fail_fast'] as const;

const bool = z.boolean(says((v) => `must be true or false, got ${typeName(v)}`));
const durationWords = (problem: string) =>
  `must be a duration such as 250ms, 2s or an integer number of milliseconds up to 24h: ${problem}`;
const duration = durationSchema(durationWords);
/** intervals that drive timers must be positive, or a timer would spin */
const positive = durationSchema(durationWords).refine((ms) => ms > 0, 'must be greater than 0');
const countWords = says((v) => `must be a non-negative integer, got ${JSON.stringify(v)}`);
const count = z.number(countWords).int(countWords).min(0, countWords);
const rateWords = says((v) => `must be a number of runs per second between 0 and 10000, got ${JSON.stringify(v)}`);
const recovery = z.enum(
  WORKFLOW_RECOVERY,
  says((v) => `must be one of ${WORKFLOW_RECOVERY.join(', ')}, got ${JSON.stringify(v)}`),
);

const section = <S extends z.core.$ZodLooseShape>(description: string, shape: S) =>
  z
    .strictObject(shape, {
      error: (iss) => (iss.code === 'invalid_type' ? `must be a mapping, got ${typeName(iss.input)}` : undefined),
    })
    .describe(description);

const SECTIONS = {
  supervisor: section('resurrects killed agents after a backoff, at most max_restarts per agent within window_ms', {
    enabled: bool,
    backoff_ms: duration.describe('first restart delay, doubled per restart within the window'),
    max_backoff_ms: duration,
    max_restarts: count.describe('restart budget per agent within window_ms'),
    window_ms: positive,
  }),
  election: section('lease-based leader election among workers; without it leadership is static (the first worker)', {
    enabled: bool,
    lease_ms: positive.describe('a new leader within this time after the leader dies'),
    renew_interval_ms: positive.describe('shorter than lease_ms'),
  }),
  failover: section(
    'a standby orchestrator takes over when the active one misses heartbeats; dispatch routes around silent workers',
    {
      enabled: bool,
      heartbeat_interval_ms: positive.describe('shorter than heartbeat_timeout_ms'),
      heartbeat_timeout_ms: positive,
    },
  ),
  checkpoints: section('periodic memory checkpoints (plus a journal of acknowledged writes since the last one)', {
    enabled: bool,
    interval_ms: positive,
  }),
  integrity: section(
    'periodic memory checksum verification; a failure restores the last checkpoint and replays the journal',
    {
      enabled: bool,
      check_interval_ms: positive,
    },
  ),
  llm: section('LLM client: retries with backoff, then the fallback provider', {
    enabled: bool,
    retries: count,
    backoff_ms: duration,
    fallback: bool,
  }),
  tools: section(
    'every tool call is bounded by timeout_ms; retries extra attempts when enabled; validate checks results',
    {
      enabled: bool,
      timeout_ms: positive,
      retries: count,
      validate: bool.describe(
        'the careful agent (with enabled): a result that is not what the tool promises (cut, empty, corrupted, carrying text around it) is retried, then refused, never used; false: the agent uses whatever comes back (DESIGN §13.2)',
      ),
    },
  ),
  mcp: section('MCP session reconnects with exponential backoff after a disconnect', {
    enabled: bool,
    backoff_ms: duration,
    max_backoff_ms: duration,
  }),
  dag: section(
    "the live DAG is restored from the workflow definition; recovery is the workflow engine's step strategy",
    {
      enabled: bool,
      restore_delay_ms: duration,
      recovery,
      step_retries: count,
    },
  ),
  workload: section('the steady-state workload: rate workflow runs per second, each failed after run_timeout_ms', {
    enabled: bool,
    rate: z.number(rateWords).min(0, rateWords).max(10_000, rateWords),
    run_timeout_ms: positive,
  }),
};

type Sections = typeof SECTIONS;

/** A whole strategy, every field present (what the runtime uses). */
export const strategySchema = z.strictObject(SECTIONS);

/** A strategy as written: any section or field may be left out, the default fills it. */
export const strategyPatchSchema = z.strictObject(
  Object.fromEntries(Object.entries(SECTIONS).map(([name, s]) => [name, s.partial().optional()])) as {
    [K in keyof Sections]: z.ZodOptional<ReturnType<Sections[K]['partial']>>;
  },
  {
    error: (iss) =>
      iss.code === 'invalid_type' ? `must be a mapping of sections, got ${typeName(iss.input)}` : undefined,
  },
);

/** `unknown section (expected …)` at the top, `unknown key (expected …)` inside a section */
export function strategyUnknownKey(_key: string, allowed: string[], at: Array<string | number>): string {
  return at.length === 0
    ? `unknown section (expected one of ${allowed.join(', ')})`
    : `unknown key (expected one of ${allowed.join(', ')})`;
}

/** `arena schema strategy`: the published JSON Schema of strategy files. */
export function strategyJsonSchema(): Record<string, unknown> {
  return publishedJsonSchema(
    {
      name: 'strategy',
      title: 'Chaos Arena recovery strategy',
      description:
        'How the embedded runtime recovers (DESIGN §5); every section and field may be left out, the default fills it',
    },
    strategyPatchSchema,
  );
}
