/**
 * Plain mode: one line per run event on stderr (CI logs, pipes, --no-tui, --json).
 * Snapshots are the live view's food; here they are folded into a progress line
 * every quarter of the run so a long CI log still shows the run is moving.
 */
import chalk from 'chalk';
import { liveRecoveryText, type RunEvent, type RunEventListener } from '../../arena/report.js';
import type { Writer } from '../context.js';
import { stoppedByText } from '../../arena/safety/watch.js';

export function createPlainReporter(stderr: Writer): RunEventListener {
  let nextQuarter = 0.25;
  return (event) => {
    if (event.type === 'snapshot') {
      if (event.progress < nextQuarter) return;
      while (nextQuarter <= event.progress) nextQuarter += 0.25;
    }
    const line = formatEvent(event);
    if (line) stderr.write(`${line}\n`);
  };
}

export function formatEvent(event: RunEvent): string | undefined {
  const t = chalk.dim(`[${(event.at_ms / 1000).toFixed(2).padStart(7)}s]`);
  switch (event.type) {
    case 'run.started':
      return `${t} ${chalk.bold(event.kind)}${event.name && event.name !== event.kind ? ` ${event.name}` : ''} started (seed ${event.seed})`;
    case 'phase':
      return `${t} phase ${event.phase}`;
    case 'action': {
      const { result } = event;
      const target = result.action.target_id ? ` ${result.action.target_id}` : '';
      const meta = result.metadata && Object.keys(result.metadata).length > 0 ? ` ${formatMeta(result.metadata)}` : '';
      const outcome = result.success ? chalk.green('ok') : chalk.red(`failed: ${result.error ?? 'unknown error'}`);
      return `${t} action ${event.label} ${result.action.type}${target} → ${outcome}${meta} (${Math.round(result.duration_ms)}ms)`;
    }
    case 'fault.reverted':
      return `${t} reverted ${event.fault.kind} on ${event.fault.target}`;
    case 'recovery': {
      const r = event.recovery;
      if (r.interrupted)
        return `${t} ${chalk.yellow('interrupted')} before ${r.type} on ${r.target} recovered (not counted)`;
      return r.recovered
        ? `${t} recovered from ${r.type} on ${r.target} in ${r.recovery_ms}ms`
        : `${t} ${chalk.red('not recovered')} from ${r.type} on ${r.target} before the deadline`;
    }
    case 'snapshot': {
      const l = event.live;
      const consistency = l.consistency === null ? '-' : l.consistency.toFixed(1);
      // "live score": provisional, without consistency (checked after the run), so it is not the final score
      const score = l.score === null ? '-' : l.score.toFixed(1);
      const consistencyText =
        l.consistency === null ? 'consistency checked after the run' : `consistency ${consistency}`;
      return `${t} progress ${Math.round(event.progress * 100)}%: live score ${score} (availability ${l.availability === null ? '-' : l.availability.toFixed(1)}, recovery ${liveRecoveryText(l)}, ${consistencyText}), ${event.faults.length} active fault(s)`;
    }
    case 'run.finished':
      return event.stopped_by
        ? `${t} ${chalk.red(stoppedByText(event.stopped_by))}; faults reverted\n${t} finished: ${event.status}`
        : `${t} finished: ${event.status}`;
  }
}

function formatMeta(meta: Record<string, unknown>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}
