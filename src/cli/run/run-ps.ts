/** `arena ps` and `arena stop`: the run directory read and acted on (src/shared/runs). */
import Table from 'cli-table3';
import { parseDuration } from '../../shared/duration.js';
import { RuntimeError } from '../../shared/errors.js';
import { listRuns, runsDirectory, type RunEntry } from '../../shared/runs/registry.js';
import { stopRuns, type StopOutcome } from '../../shared/runs/stop.js';
import type { CliContext } from '../context.js';
import { renderFitted, terminalWidth } from '../output/fit.js';
import { SCHEMA_VERSION } from '../output/json.js';

export function psCommand(opts: { json?: boolean }, ctx: CliContext): void {
  const { active } = listRuns(ctx.env);
  if (opts.json) {
    const runs = active.map(({ schema_version: _v, start_time: _s, cmdline: _c, ...shown }) => shown);
    ctx.stdout.write(
      `${JSON.stringify({ schema_version: SCHEMA_VERSION, dir: runsDirectory(ctx.env), runs }, null, 2)}\n`,
    );
    return;
  }
  if (active.length === 0) {
    ctx.stdout.write('no active runs on this machine\n');
    return;
  }
  const table = new Table({
    head: ['run id', 'command', 'pid', 'running for', 'where'],
    style: { head: [], border: [] },
  });
  const now = Date.now();
  for (const run of active)
    table.push([run.run_id, run.command, String(run.pid), age(now - Date.parse(run.started_at)), where(run)]);
  ctx.stdout.write(`${renderFitted(table, terminalWidth(ctx.stdout))}\n`);
}

export async function stopCommand(
  runId: string | undefined,
  opts: { timeout: string; json?: boolean },
  ctx: CliContext,
): Promise<void> {
  const outcomes = await stopRuns(ctx.env, {
    ...(runId !== undefined ? { runId } : {}),
    timeoutMs: parseDuration(opts.timeout),
    signal: ctx.signal,
  });
  if (opts.json) ctx.stdout.write(`${JSON.stringify({ schema_version: SCHEMA_VERSION, runs: outcomes }, null, 2)}\n`);
  else if (outcomes.length === 0) ctx.stdout.write('no active runs on this machine: nothing to stop\n');
  else for (const o of outcomes) ctx.stdout.write(`${line(o)}\n`);
  const notStopped = outcomes.filter((o) => o.outcome !== 'stopped');
  if (notStopped.length > 0)
    throw new RuntimeError(
      `${notStopped.length} of ${outcomes.length} run(s) not stopped: ${notStopped.map((o) => `${o.run_id} (${o.detail ?? o.outcome})`).join(', ')}`,
      { code: 'stop_failed' },
    );
}

function line(o: StopOutcome): string {
  const what = `${o.run_id} (${o.command}, pid ${o.pid})`;
  if (o.outcome === 'stopped')
    return `stopped ${what} in ${o.elapsed_ms}ms${o.detail ? `: ${o.detail}` : ', faults reverted'}`;
  return `NOT stopped ${what}: ${o.detail ?? o.outcome}`;
}

function where(run: RunEntry): string {
  return run.url ?? run.cwd;
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
