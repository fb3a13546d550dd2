/** What `--dry-run` prints: the resolved plan of each run, as a table or one JSON document. */
import Table from 'cli-table3';
import type { DryRunPlan, PlannedFault, PlannedTrials } from '../../arena/dry-run/types.js';
import { formatDuration } from '../../shared/duration.js';
import { renderFitted } from './fit.js';
import { SCHEMA_VERSION } from './json.js';

export function dryRunDocument(plans: DryRunPlan[]): { schema_version: 1; dry_run: true; plans: DryRunPlan[] } {
  return { schema_version: SCHEMA_VERSION, dry_run: true, plans };
}

export function renderDryRun(plans: DryRunPlan[], width: number | undefined): string {
  const out: string[] = [];
  for (const plan of plans) {
    out.push(`dry run: ${plan.kind} ${plan.name} on ${plan.target.name} (${plan.target.kind}), seed ${plan.seed}`);
    out.push(`  started for resolving: ${plan.target.started}`);
    out.push(`  leader now: ${plan.leader ?? 'none'}`);
    const agents = new Table({ head: ['agent', 'role', 'status', 'pid', 'proxies'], style: { head: [], border: [] } });
    for (const a of plan.agents)
      agents.push([
        a.id,
        a.role,
        a.status,
        a.pid !== undefined ? String(a.pid) : a.pid_source ? `? (${a.pid_source})` : '-',
        (a.proxies ?? []).join('\n') || '-',
      ]);
    out.push(renderFitted(agents, width));
    const faults = new Table({
      head: ['at', 'label', 'fault', 'target', 'pid', 'parameters', 'decided at run time'],
      style: { head: [], border: [] },
      wordWrap: true,
    });
    if (plan.trials) out.push(...trialsLines(plan.trials));
    for (const l of plan.action_kinds_left_out ?? []) out.push(`  left out of the mix: ${l.type} (${l.reason})`);
    out.push(
      plan.trials
        ? `  the faulted blocks apply ${plan.timeline.length} fault(s) in all:`
        : `  warmup ${formatDuration(plan.warmup_ms)}, then ${plan.timeline.length} fault(s):`,
    );
    for (const f of plan.timeline)
      faults.push([
        plan.trials ? 'block start' : formatDuration(f.at_ms),
        f.label,
        f.type,
        f.target || '-',
        f.pid !== undefined ? String(f.pid) : '-',
        params(f),
        f.decided_at_run_time ?? '',
      ]);
    if (plan.timeline.length > 0 || !plan.trials) out.push(renderFitted(faults, width));
    out.push(
      plan.trials
        ? '  No task request was sent. Nothing was injected.'
        : `  then cooldown ${formatDuration(plan.cooldown_ms)}. Nothing was injected.`,
    );
    for (const p of plan.problems) out.push(`  cannot resolve: ${p}`);
  }
  return `${out.join('\n')}\n`;
}

function params(f: PlannedFault): string {
  const parts: string[] = [];
  if (f.duration_ms !== undefined) parts.push(`for ${formatDuration(f.duration_ms)}`);
  for (const [k, v] of Object.entries(f.params ?? {}))
    parts.push(`${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (f.proxies) parts.push(`via ${f.proxies.join(', ')}`);
  if (f.depends_on) parts.push(`after ${f.depends_on.join(', ')}`);
  return parts.join(' ');
}

function trialsLines(trials: PlannedTrials): string[] {
  const out = [
    `  ${trials.n} trial(s) per task and arm; tasks: ${trials.tasks.join(', ') || 'none'}; arms: ${trials.arms.join(', ')}`,
    `  ${trials.blocks.length} block(s), in the order they run:`,
  ];
  for (const b of trials.blocks)
    out.push(
      `    round ${b.round + 1} ${b.arm}: ${b.tasks.join(', ')}${b.faults ? ` (faults: ${b.faults.map((f) => `${f.type}${f.target ? ` ${f.target}` : ''}`).join(', ')})` : ''}`,
    );
  return out;
}
