/**
 * The recovery strategy: one plain, serialisable object that configures every
 * recovery mechanism of the embedded runtime. Each mechanism is on by default
 * and each can be switched off, so two strategies can be compared (A/B) and a
 * strategy with everything off shows what the faults do unopposed.
 *
 * Durations are fields ending in `_ms`; in YAML they may be written with units
 * (`lease_ms: 300ms`) or as integer milliseconds.
 */
import type { z } from 'zod';
import { readSmallFile } from '../shared/files.js';
import { UsageError } from '../shared/errors.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import {
  formatSourceProblems,
  isJsonPath,
  MAX_YAML_BYTES,
  pathSegments,
  readYamlDocument,
  type SourcePosition,
  type SourceProblem,
} from '../shared/yaml-source.js';
import { formatSegments, parseProblems } from '../shared/zod-problems.js';
import { strategyPatchSchema, type strategySchema, strategyUnknownKey, WORKFLOW_RECOVERY } from './strategy-schema.js';

export { WORKFLOW_RECOVERY };
export type WorkflowRecovery = (typeof WORKFLOW_RECOVERY)[number];

/** Every recovery mechanism's settings, durations in ms; the fields are described in strategy-schema.ts. */
export type Strategy = z.output<typeof strategySchema>;

export type StrategyPatch = { [K in keyof Strategy]?: Partial<Strategy[K]> };

/** Fast defaults: recovery happens in tens to hundreds of milliseconds. */
export const DEFAULT_STRATEGY: Strategy = deepFreeze({
  supervisor: { enabled: true, backoff_ms: 50, max_backoff_ms: 1000, max_restarts: 10, window_ms: 10_000 },
  election: { enabled: true, lease_ms: 300, renew_interval_ms: 50 },
  failover: { enabled: true, heartbeat_interval_ms: 25, heartbeat_timeout_ms: 150 },
  checkpoints: { enabled: true, interval_ms: 200 },
  integrity: { enabled: true, check_interval_ms: 50 },
  llm: { enabled: true, retries: 2, backoff_ms: 10, fallback: true, validate: true },
  tools: { enabled: true, timeout_ms: 100, retries: 1, validate: true },
  mcp: { enabled: true, backoff_ms: 20, max_backoff_ms: 500 },
  dag: { enabled: true, restore_delay_ms: 50, recovery: 'retry', step_retries: 1 },
  workload: { enabled: true, rate: 20, run_timeout_ms: 1000 },
});

/** Every recovery mechanism off; timings and the workload stay as in the default. */
export const RECOVERY_OFF_STRATEGY: Strategy = deepFreeze(
  mergeStrategy(DEFAULT_STRATEGY, {
    supervisor: { enabled: false },
    election: { enabled: false },
    failover: { enabled: false },
    checkpoints: { enabled: false },
    integrity: { enabled: false },
    llm: { enabled: false },
    tools: { enabled: false },
    mcp: { enabled: false },
    dag: { enabled: false, recovery: 'fail_fast', step_retries: 0 },
  }),
);

/**
 * Validates a partial strategy (sections and fields may be left out) and
 * returns it normalised (durations in ms). Reports every problem at once.
 */
export function parseStrategyPatch(input: unknown, source = 'strategy', base?: Strategy): StrategyPatch {
  const { patch, problems, unknownAt } = checkPatch(input);
  if (problems.length > 0) {
    // given the strategy it will apply to, the patch's broken relations are reported with its unknown keys
    const relations = base && unknownAt.length === problems.length ? relationsWithout(input, unknownAt, base) : [];
    throw invalidStrategy([...problems, ...relations], source);
  }
  return patch;
}

/** A full strategy: the default with `input` (a possibly partial strategy) applied. */
export function parseStrategy(input: unknown, source = 'strategy'): Strategy {
  return parseLocated(input, source);
}

/** Relations between fields that make a strategy unable to work. */
export function crossCheck(s: Strategy): string[] {
  return crossProblems(s).map(problemText);
}

/** Reads a YAML (or JSON) strategy file; a missing file or invalid content is a UsageError naming the file and each problem's line:column. */
export async function loadStrategyFile(path: string): Promise<Strategy> {
  return parseStrategyText(await readSmallFile(path, MAX_YAML_BYTES, 'strategy'), path);
}

/** Parses YAML (or JSON) strategy text; every problem names `source:line:column` and its path. */
export function parseStrategyText(text: string, source = 'strategy'): Strategy {
  const doc = readYamlDocument(text, MAX_YAML_BYTES, { json: isJsonPath(source) });
  if (!doc.ok) {
    const problems: SourceProblem[] =
      doc.reason === 'syntax'
        ? doc.errors
        : [
            {
              path: '',
              message:
                doc.reason === 'too_large'
                  ? `text is ${doc.bytes} bytes; the limit is ${doc.limit}`
                  : `cannot expand the document: ${doc.detail}`,
            },
          ];
    throw new UsageError(`${source}: not valid YAML:\n${formatSourceProblems(problems, source)}`, {
      code: 'invalid_strategy',
      details: problems.map(problemText),
    });
  }
  return parseLocated(doc.value ?? {}, source, (p) =>
    doc.positionOf(pathSegments(p.path), p.message.startsWith('unknown')),
  );
}

type Locator = (p: SourceProblem) => SourcePosition | undefined;

function parseLocated(input: unknown, source: string, locate?: Locator): Strategy {
  if (input === undefined || input === null) return DEFAULT_STRATEGY;
  const { patch, problems, unknownAt } = checkPatch(input);
  if (problems.length > 0) {
    // only unknown keys: the rest still has a meaning, so its broken relations are reported in the same go
    const relations =
      unknownAt.length === problems.length ? relationsWithout(input, unknownAt) : ([] as SourceProblem[]);
    throw invalidStrategy([...problems, ...relations], source, locate);
  }
  const merged = mergeStrategy(DEFAULT_STRATEGY, patch);
  const relations = crossProblems(merged);
  if (relations.length > 0) throw invalidStrategy(relations, source, locate);
  return merged;
}

function checkPatch(input: unknown): {
  patch: StrategyPatch;
  problems: SourceProblem[];
  /** where the unknown sections and keys are */
  unknownAt: Array<Array<string | number>>;
} {
  if (input === null || input === undefined) return { patch: {}, problems: [], unknownAt: [] };
  const { data, problems } = parseProblems(strategyPatchSchema, input, { unknownKey: strategyUnknownKey });
  return {
    patch: (data ?? {}) as StrategyPatch,
    problems: problems.map((p) => ({ path: formatSegments(p.segments), message: p.message })),
    unknownAt: problems.filter((p) => p.atKey && p.message.startsWith('unknown')).map((p) => p.segments),
  };
}

/** the relation problems of `input` with its unknown keys left out (none when it is still invalid) */
function relationsWithout(
  input: unknown,
  unknownAt: Array<Array<string | number>>,
  base: Strategy = DEFAULT_STRATEGY,
): SourceProblem[] {
  const copy = structuredClone(input) as Record<string, unknown>;
  for (const at of unknownAt) {
    const parent = at.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], copy);
    if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[at.at(-1)!];
  }
  const { patch, problems } = checkPatch(copy);
  return problems.length > 0 ? [] : crossProblems(mergeStrategy(base, patch));
}

function crossProblems(s: Strategy): SourceProblem[] {
  const problems: SourceProblem[] = [];
  if (s.election.renew_interval_ms >= s.election.lease_ms) {
    problems.push({
      path: 'election.renew_interval_ms',
      message: 'must be shorter than election.lease_ms, or the leader loses its lease between renewals',
    });
  }
  if (s.failover.heartbeat_interval_ms >= s.failover.heartbeat_timeout_ms) {
    problems.push({
      path: 'failover.heartbeat_interval_ms',
      message: 'must be shorter than failover.heartbeat_timeout_ms',
    });
  }
  if (s.supervisor.max_backoff_ms < s.supervisor.backoff_ms)
    problems.push({ path: 'supervisor.max_backoff_ms', message: 'must be at least supervisor.backoff_ms' });
  if (s.mcp.max_backoff_ms < s.mcp.backoff_ms)
    problems.push({ path: 'mcp.max_backoff_ms', message: 'must be at least mcp.backoff_ms' });
  return problems;
}

/**
 * Without a locator (a strategy given as data) the message lists `path: message` as before; with one
 * (a strategy read from text) each line is `source:line:col path: message`. `details` stays the list of
 * `path: message` strings either way.
 */
function invalidStrategy(problems: SourceProblem[], source: string, locate?: Locator): UsageError {
  const details = problems.map(problemText);
  if (!locate) {
    // a non-mapping input keeps its old one-line wording
    if (problems.length === 1 && problems[0]!.path === '')
      return new UsageError(`${source}: ${problems[0]!.message}`, { code: 'invalid_strategy' });
    return new UsageError(`${source}: invalid strategy:\n  - ${details.join('\n  - ')}`, {
      code: 'invalid_strategy',
      details,
    });
  }
  // in file order: the schema reports a mapping's unknown keys after its known ones
  const located = problems
    .map((p) => {
      const pos = locate(p);
      return pos ? { ...p, line: pos.line, column: pos.column } : p;
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return new UsageError(`${source}: invalid strategy: ${count}\n${formatSourceProblems(located, source)}`, {
    code: 'invalid_strategy',
    details,
  });
}

function problemText(p: SourceProblem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** A new strategy: `base` with the fields present in `patch` replaced. Neither argument is modified. */
export function mergeStrategy(base: Strategy, patch: StrategyPatch): Strategy {
  const out = structuredClone(base) as unknown as Record<string, Record<string, unknown>>;
  for (const [section, fields] of Object.entries(patch)) {
    if (!fields || !out[section]) continue;
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[section]![key] = value;
  }
  return out as unknown as Strategy;
}
