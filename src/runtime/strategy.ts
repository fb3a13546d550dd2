/**
 * The recovery strategy: one plain, serialisable object that configures every
 * recovery mechanism of the embedded runtime. Each mechanism is on by default
 * and each can be switched off, so two strategies can be compared (A/B) and a
 * strategy with everything off shows what the faults do unopposed.
 *
 * Durations are fields ending in `_ms`; in YAML they may be written with units
 * (`lease_ms: 300ms`) or as integer milliseconds.
 */
import { readSmallFile } from '../shared/files.js';
import { durationProblem, tryParseDuration } from '../shared/duration.js';
import { UsageError } from '../shared/errors.js';
import { formatSourceProblems, MAX_YAML_BYTES, pathSegments, readYamlDocument, type SourcePosition, type SourceProblem } from '../shared/yaml-source.js';

export const WORKFLOW_RECOVERY = ['retry', 'replace_node', 'fail_fast'] as const;
export type WorkflowRecovery = (typeof WORKFLOW_RECOVERY)[number];

export interface Strategy {
  /** resurrects killed agents after a backoff, at most `max_restarts` per agent within `window_ms` */
  supervisor: { enabled: boolean; backoff_ms: number; max_backoff_ms: number; max_restarts: number; window_ms: number };
  /** lease-based leader election among workers; without it leadership is static (the first worker) */
  election: { enabled: boolean; lease_ms: number; renew_interval_ms: number };
  /** standby orchestrator takes over when the active one misses heartbeats; the active one routes around silent workers */
  failover: { enabled: boolean; heartbeat_interval_ms: number; heartbeat_timeout_ms: number };
  /** periodic memory checkpoints (plus a journal of acknowledged writes since the last one) */
  checkpoints: { enabled: boolean; interval_ms: number };
  /** periodic memory checksum verification; a failure restores the last checkpoint and replays the journal */
  integrity: { enabled: boolean; check_interval_ms: number };
  /** LLM client: retries with backoff, then the fallback provider */
  llm: { enabled: boolean; retries: number; backoff_ms: number; fallback: boolean };
  /** every tool call is bounded by `timeout_ms`; `retries` extra attempts when enabled */
  tools: { enabled: boolean; timeout_ms: number; retries: number };
  /** MCP session reconnects with exponential backoff after a disconnect */
  mcp: { enabled: boolean; backoff_ms: number; max_backoff_ms: number };
  /** the live DAG is restored from the workflow definition; `recovery` is the workflow engine's step strategy */
  dag: { enabled: boolean; restore_delay_ms: number; recovery: WorkflowRecovery; step_retries: number };
  /** the steady-state workload: `rate` workflow runs per second, each failed after `run_timeout_ms` */
  workload: { enabled: boolean; rate: number; run_timeout_ms: number };
}

export type StrategyPatch = { [K in keyof Strategy]?: Partial<Strategy[K]> };

/** Fast defaults: recovery happens in tens to hundreds of milliseconds. */
export const DEFAULT_STRATEGY: Strategy = deepFreeze({
  supervisor: { enabled: true, backoff_ms: 50, max_backoff_ms: 1000, max_restarts: 10, window_ms: 10_000 },
  election: { enabled: true, lease_ms: 300, renew_interval_ms: 50 },
  failover: { enabled: true, heartbeat_interval_ms: 25, heartbeat_timeout_ms: 150 },
  checkpoints: { enabled: true, interval_ms: 200 },
  integrity: { enabled: true, check_interval_ms: 50 },
  llm: { enabled: true, retries: 2, backoff_ms: 10, fallback: true },
  tools: { enabled: true, timeout_ms: 100, retries: 1 },
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

type FieldKind = 'bool' | 'duration' | 'count' | 'rate' | 'recovery';

const SCHEMA: { [S in keyof Strategy]: Record<keyof Strategy[S], FieldKind> } = {
  supervisor: { enabled: 'bool', backoff_ms: 'duration', max_backoff_ms: 'duration', max_restarts: 'count', window_ms: 'duration' },
  election: { enabled: 'bool', lease_ms: 'duration', renew_interval_ms: 'duration' },
  failover: { enabled: 'bool', heartbeat_interval_ms: 'duration', heartbeat_timeout_ms: 'duration' },
  checkpoints: { enabled: 'bool', interval_ms: 'duration' },
  integrity: { enabled: 'bool', check_interval_ms: 'duration' },
  llm: { enabled: 'bool', retries: 'count', backoff_ms: 'duration', fallback: 'bool' },
  tools: { enabled: 'bool', timeout_ms: 'duration', retries: 'count' },
  mcp: { enabled: 'bool', backoff_ms: 'duration', max_backoff_ms: 'duration' },
  dag: { enabled: 'bool', restore_delay_ms: 'duration', recovery: 'recovery', step_retries: 'count' },
  workload: { enabled: 'bool', rate: 'rate', run_timeout_ms: 'duration' },
};

/** Intervals that drive timers must be positive, or a timer would spin. */
const POSITIVE = new Set([
  'election.lease_ms',
  'election.renew_interval_ms',
  'failover.heartbeat_interval_ms',
  'failover.heartbeat_timeout_ms',
  'checkpoints.interval_ms',
  'integrity.check_interval_ms',
  'tools.timeout_ms',
  'workload.run_timeout_ms',
  'supervisor.window_ms',
]);

/**
 * Validates a partial strategy (sections and fields may be left out) and
 * returns it normalised (durations in ms). Reports every problem at once.
 */
export function parseStrategyPatch(input: unknown, source = 'strategy'): StrategyPatch {
  const { patch, problems } = checkPatch(input);
  if (problems.length > 0) throw invalidStrategy(problems, source);
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
  const doc = readYamlDocument(text);
  if (!doc.ok) {
    const problems: SourceProblem[] =
      doc.reason === 'syntax'
        ? doc.errors
        : [{ path: '', message: doc.reason === 'too_large' ? `text is ${doc.bytes} bytes; the limit is ${doc.limit}` : `cannot expand the document: ${doc.detail}` }];
    throw new UsageError(`${source}: not valid YAML:\n${formatSourceProblems(problems, source)}`, 'invalid_strategy', { details: problems.map(problemText) });
  }
  return parseLocated(doc.value ?? {}, source, (p) => doc.positionOf(pathSegments(p.path), p.message.startsWith('unknown')));
}

type Locator = (p: SourceProblem) => SourcePosition | undefined;

function parseLocated(input: unknown, source: string, locate?: Locator): Strategy {
  if (input === undefined || input === null) return DEFAULT_STRATEGY;
  const { patch, problems } = checkPatch(input);
  if (problems.length > 0) throw invalidStrategy(problems, source, locate);
  const merged = mergeStrategy(DEFAULT_STRATEGY, patch);
  const relations = crossProblems(merged);
  if (relations.length > 0) throw invalidStrategy(relations, source, locate);
  return merged;
}

function checkPatch(input: unknown): { patch: StrategyPatch; problems: SourceProblem[] } {
  const problems: SourceProblem[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  if (input === null || input === undefined) return { patch: {}, problems };
  if (!isPlainObject(input)) return { patch: {}, problems: [{ path: '', message: `must be a mapping of sections, got ${typeName(input)}` }] };
  const add = (path: string, message: string) => problems.push({ path, message });
  for (const [section, value] of Object.entries(input)) {
    const fields = (SCHEMA as Record<string, Record<string, FieldKind>>)[section];
    if (!fields) {
      add(section, `unknown section (expected one of ${Object.keys(SCHEMA).join(', ')})`);
      continue;
    }
    if (!isPlainObject(value)) {
      add(section, `must be a mapping, got ${typeName(value)}`);
      continue;
    }
    const parsed: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(value)) {
      const path = `${section}.${key}`;
      const kind = fields[key];
      if (!kind) {
        add(path, `unknown key (expected one of ${Object.keys(fields).join(', ')})`);
        continue;
      }
      const result = parseField(kind, raw);
      if (typeof result === 'string') add(path, result);
      else if (POSITIVE.has(path) && result.value === 0) add(path, 'must be greater than 0');
      else parsed[key] = result.value;
    }
    out[section] = parsed;
  }
  return { patch: out as StrategyPatch, problems };
}

function crossProblems(s: Strategy): SourceProblem[] {
  const problems: SourceProblem[] = [];
  if (s.election.renew_interval_ms >= s.election.lease_ms) {
    problems.push({ path: 'election.renew_interval_ms', message: 'must be shorter than election.lease_ms, or the leader loses its lease between renewals' });
  }
  if (s.failover.heartbeat_interval_ms >= s.failover.heartbeat_timeout_ms) {
    problems.push({ path: 'failover.heartbeat_interval_ms', message: 'must be shorter than failover.heartbeat_timeout_ms' });
  }
  if (s.supervisor.max_backoff_ms < s.supervisor.backoff_ms) problems.push({ path: 'supervisor.max_backoff_ms', message: 'must be at least supervisor.backoff_ms' });
  if (s.mcp.max_backoff_ms < s.mcp.backoff_ms) problems.push({ path: 'mcp.max_backoff_ms', message: 'must be at least mcp.backoff_ms' });
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
    if (problems.length === 1 && problems[0]!.path === '') return new UsageError(`${source}: ${problems[0]!.message}`, 'invalid_strategy');
    return new UsageError(`${source}: invalid strategy:\n  - ${details.join('\n  - ')}`, 'invalid_strategy', { details });
  }
  const located = problems.map((p) => {
    const pos = locate(p);
    return pos ? { ...p, line: pos.line, column: pos.column } : p;
  });
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return new UsageError(`${source}: invalid strategy: ${count}\n${formatSourceProblems(located, source)}`, 'invalid_strategy', { details });
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

function parseField(kind: FieldKind, raw: unknown): { value: unknown } | string {
  switch (kind) {
    case 'bool':
      return typeof raw === 'boolean' ? { value: raw } : `must be true or false, got ${typeName(raw)}`;
    case 'duration': {
      const ms = tryParseDuration(raw);
      return ms === undefined ? `must be a duration such as 250ms, 2s or an integer number of milliseconds up to 24h: ${durationProblem(raw)}` : { value: ms };
    }
    case 'count':
      return typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? { value: raw } : `must be a non-negative integer, got ${JSON.stringify(raw)}`;
    case 'rate':
      return typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 && raw <= 10_000
        ? { value: raw }
        : `must be a number of runs per second between 0 and 10000, got ${JSON.stringify(raw)}`;
    case 'recovery':
      return typeof raw === 'string' && (WORKFLOW_RECOVERY as readonly string[]).includes(raw)
        ? { value: raw }
        : `must be one of ${WORKFLOW_RECOVERY.join(', ')}, got ${JSON.stringify(raw)}`;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
