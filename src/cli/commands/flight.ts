/**
 * `arena flight`: the flight recorder's timeline and diagnostics of recent
 * runs, read from an event store (`.arena/arena.db` by default, where
 * `arena serve` and runs given `--store` record). Also the `--store` run
 * plugin that makes `scenario run` / `survival` record into a store.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import Table from 'cli-table3';
import chalk from 'chalk';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import type { RunPlugin } from '../run-plugin.js';
import { renderFitted, terminalWidth } from '../output/fit.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { examples } from './options.js';
import { UsageError } from '../../shared/errors.js';
import { tryParseDuration } from '../../shared/duration.js';
import { FLIGHT_CATEGORIES } from '../../flight/diagnostics.js';
import { DEFAULT_STORE_PATH, storeKind, storeSpec } from '../../events/store-spec.js';
import type { DiagnosticRecord, FlightQuery, TimelineRecord } from '../../flight/records.js';
import type { RecordedRun } from '../../flight/run-listener.js';
import { runTitle } from '../view/view-state.js';
import { ACTION_TYPES } from '../../arena/action.js';

interface FlightOptions {
  store?: string;
  since?: string;
  agent?: string;
  category?: string;
  type?: string;
  failed?: boolean;
  limit?: number;
  json?: boolean;
  color?: boolean;
}

function parseSince(value: string): string {
  if (tryParseDuration(value) === undefined && Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('must be a duration back from now ("10m", "1h") or an ISO time');
  }
  return value;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n <= 0) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

// a misspelt type would otherwise match nothing and read as "no such actions were recorded"
function parseType(value: string): string {
  if (!(ACTION_TYPES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`unknown action type (one of ${ACTION_TYPES.join(', ')})`);
  return value;
}

export function registerFlightCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('flight')
    .description('Timeline and diagnostics of recent arena actions, from the flight recorder store')
    .option(
      '--store <path|url>',
      `event store to read: a SQLite file (default ${DEFAULT_STORE_PATH}), a postgres:// URL, or "memory" (or set ARENA_STORE)`,
    )
    .option(
      '--since <when>',
      'only records newer than this: a duration back from now ("10m") or an ISO time',
      parseSince,
    )
    .option('--agent <id>', 'only actions that hit this agent')
    .option('--category <name>', `only this diagnostic category (${FLIGHT_CATEGORIES.join(', ')})`)
    .option('--type <action>', 'only this action type', parseType)
    .option('--failed', 'only failed actions')
    .option('--limit <n>', 'at most the N most recent records', parseLimit)
    .option('--json', 'print one JSON document on stdout (schema_version 1) and nothing else there')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)');
  examples(command, [
    'arena flight',
    'arena flight --since 10m --agent agent-2',
    'arena flight --store runs.db --category leadership --json',
    'arena flight --failed --limit 20',
    'arena flight --store postgres://arena@db.internal:5432/arena --since 1h',
  ]);
  command.action(async (options: FlightOptions) => {
    const mode = resolveOutputMode({ json: options.json, color: options.color }, ctx);
    applyColor(mode);
    const spec = storeSpec(options.store, ctx.env, DEFAULT_STORE_PATH)!;
    if (storeKind(spec) === 'sqlite' && !existsSync(resolve(ctx.cwd, spec))) {
      throw new UsageError(`no event store at ${spec}`, {
        code: 'store_not_found',
        hint: 'runs record there with --store PATH (arena scenario run/survival) and arena serve; pass --store to read another file',
      });
    }
    const [{ openEventStore }, { FlightRecorder }, { listRecordedRuns }] = await Promise.all([
      import('../../events/open.js'),
      import('../../flight/recorder.js'),
      import('../../flight/run-listener.js'),
    ]);
    const opened = openEventStore(spec, { cwd: ctx.cwd });
    try {
      await opened.ready();
      const recorder = new FlightRecorder({ store: opened.store });
      const query: FlightQuery = {};
      if (options.since) query.since = options.since;
      if (options.agent) query.agent = options.agent;
      if (options.category) query.category = options.category;
      if (options.type) query.type = options.type;
      if (options.failed) query.success = false;
      const timeline = await recorder.timeline({ ...query, ...(options.limit ? { limit: options.limit } : {}) });
      const shownIds = new Set(timeline.map((r) => r.id));
      const diagnostics = (await recorder.diagnostics(query)).filter((d) => shownIds.has(d.action_id));
      const summary = await recorder.summary(query);
      const sessions = new Set(timeline.map((r) => r.session));
      const runs = (await listRecordedRuns(opened.store)).filter((r) => sessions.has(r.session));
      if (mode.kind === 'json') {
        ctx.stdout.write(
          `${JSON.stringify({ schema_version: 1, store: opened.location, query, summary, runs, timeline, diagnostics }, null, 2)}\n`,
        );
        return;
      }
      ctx.stdout.write(
        renderFlight(opened.location, timeline, diagnostics, summary.actions, runs, terminalWidth(ctx.stdout)),
      );
    } finally {
      await opened.close();
    }
  });
}

export function renderFlight(
  store: string,
  timeline: TimelineRecord[],
  diagnostics: DiagnosticRecord[],
  total: number,
  runs: RecordedRun[] = [],
  width?: number,
): string {
  const out: string[] = [chalk.bold('Flight recorder') + chalk.dim(` (${store})`), ''];
  if (timeline.length === 0) {
    out.push('no recorded actions match');
    return `${out.join('\n')}\n`;
  }
  if (runs.length > 0) {
    out.push(chalk.bold('Runs'));
    for (const r of runs) {
      out.push(
        `  ${r.session}  ${runTitle(r.kind ?? null, r.name ?? '')}  seed ${r.seed ?? '-'}  started ${r.started_at}  ${r.status ?? 'unfinished'}`,
      );
    }
    out.push('');
  }
  const failed = timeline.filter((r) => !r.success).length;
  out.push(chalk.bold('Timeline') + chalk.dim(` (${timeline.length} of ${total} actions, ${failed} failed)`));
  const table = new Table({
    head: ['time', 'run', 'action', 'target', 'agent', 'category', 'result'],
    style: { head: [], border: [] },
  });
  for (const r of timeline) {
    const target = r.type === 'remove_edge' ? `${r.source_id ?? '?'}→${r.target_id}` : r.target_id || '-';
    table.push([
      r.at.replace('T', ' ').replace('Z', ''),
      r.session,
      r.type,
      target,
      r.agent_id ?? '-',
      r.category,
      r.success ? chalk.green('ok') : chalk.red(`failed: ${truncate(r.error ?? '', 50)}`),
    ]);
  }
  out.push(renderFitted(table, width), '');
  out.push(chalk.bold('Diagnostics') + chalk.dim(` (${diagnostics.length})`));
  if (diagnostics.length === 0) out.push('  no failed actions');
  for (const d of diagnostics) {
    out.push(
      `${chalk.red('✗')} ${d.type} ${d.target_id || ''} ${chalk.dim(`[${d.category} · ${d.failure_reason}] ${d.at}`)}`,
    );
    out.push(`    root cause: ${d.root_cause}`);
    for (const fix of d.suggested_fixes) out.push(`    fix: ${fix}`);
  }
  return `${out.join('\n')}\n`;
}

function truncate(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/**
 * `--store memory|PATH|postgres://…` (or ARENA_STORE) on the run commands: records every action of the run
 * (flight timeline, diagnostics, failure evidence) and its start/finish into
 * the store, so `arena flight --store PATH` can show it afterwards.
 */
export const storeRunPlugin: RunPlugin = {
  name: 'store',
  addOptions(command) {
    command.option(
      '--store <memory|path|url>',
      'record the run (the arena event stream, flight timeline, diagnostics, runs) into this event store: a SQLite file, a postgres:// URL or "memory" (or set ARENA_STORE)',
    );
  },
  async attach(options, ctx) {
    const spec = storeSpec(options.store as string | undefined, ctx.env);
    if (spec === undefined) return undefined;
    if (typeof spec !== 'string' || spec.trim() === '')
      throw new UsageError('--store needs a SQLite file path, a postgres:// URL or "memory"');
    const [{ openReadyEventStore }, { recordRunEvents }] = await Promise.all([
      import('../../events/open.js'),
      import('../../flight/run-listener.js'),
    ]);
    const opened = await openReadyEventStore(spec, { cwd: ctx.cwd });
    const recording = recordRunEvents(opened.store);
    return {
      listener: recording.listener,
      // the arena's own event stream, not only the flight timeline and the runs
      eventStore: opened.store,
      async close() {
        try {
          await recording.flush();
        } finally {
          await opened.close();
        }
      },
    };
  },
};
