/**
 * `arena describe`: what the default embedded target looks like — its agents
 * (id, role, status, restarts), the steady-state workflow DAG, and the
 * recovery strategy in force — so scenarios can be written against it.
 */
import type { Command } from 'commander';
import Table from 'cli-table3';
import chalk from 'chalk';
import type { CliContext } from '../context.js';
import { renderFitted, terminalWidth } from '../output/fit.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { formatDuration } from '../../shared/duration.js';
import type { ProxyReport, Target, TargetDescription } from '../../arena/providers.js';

interface DescribeOptions {
  json?: boolean;
  strategy?: string;
  target?: string;
  color?: boolean;
}

export function registerDescribeCommand(program: Command, ctx: CliContext): void {
  program
    .command('describe')
    .description(
      'Show a target (the embedded runtime unless --target): agents (id, role, status, restarts), DAG nodes and edges, the faults it cannot apply, recovery strategy',
    )
    .option('--json', 'print one JSON document on stdout and nothing else there')
    .option('--strategy <file>', 'recovery strategy (YAML) to describe instead of the built-in default')
    .option('--target <file>', 'describe the system this target file points at (it is started and stopped again)')
    .option('--no-color', 'no colour')
    .addHelpText(
      'after',
      `
Examples:
  $ arena describe
  $ arena describe --json
  $ arena describe --strategy strategies/recovery-off.yaml
  $ arena describe --target my-agents.yaml`,
    )
    .action(async (options: DescribeOptions) => {
      const mode = resolveOutputMode({ json: options.json, color: options.color }, ctx);
      applyColor(mode);
      // loaded here, not at the top: every command would otherwise pay for the runtime at start-up
      const { chooseTarget } = await import('../run/targets.js');
      const choice = await chooseTarget(options, ctx);
      const described = await describeTarget(await choice.create(1));
      const source = options.target ?? options.strategy ?? 'built-in default';
      if (mode.kind === 'json') {
        ctx.stdout.write(`${JSON.stringify({ schema_version: 1, ...described, strategy_source: source }, null, 2)}\n`);
      } else {
        ctx.stdout.write(renderDescription(described, source, terminalWidth(ctx.stdout)));
      }
    });
}

type Described = TargetDescription & { unsupported_faults: Record<string, string> };

/** starts the target just long enough to read it (the embedded one elects its leader; a remote one answers GET /v1/target) */
async function describeTarget(target: Target): Promise<Described> {
  // stopped again before the first workload tick: describing never runs the workload
  await target.start();
  try {
    const d = await target.describe();
    return { ...d, kind: target.kind, unsupported_faults: { ...target.unsupportedFaults() } as Record<string, string> };
  } finally {
    await target.stop();
  }
}

export function renderDescription(
  d: TargetDescription & { unsupported_faults?: Record<string, string> },
  source: string,
  width?: number,
): string {
  const out: string[] = [chalk.bold(`Target ${d.name}`), '', chalk.bold('Agents')];
  const agents = new Table({ head: ['id', 'role', 'status', 'restarts'], style: { head: [], border: [] } });
  for (const a of d.agents) agents.push([a.id, a.role, a.status, String(a.restarts)]);
  out.push(renderFitted(agents, width), '', chalk.bold('Workflow DAG'));
  out.push(`  nodes: ${d.dag.nodes.join(', ')}`);
  out.push(`  edges: ${d.dag.edges.map((e) => `${e.from}→${e.to}`).join(', ')}`, '');
  const refused = Object.entries(d.unsupported_faults ?? {});
  if (refused.length > 0)
    out.push(chalk.bold('Faults it cannot apply'), ...refused.map(([type, why]) => `  ${type}: ${why}`), '');
  if (d.kind !== undefined && d.kind !== 'embedded') {
    out.push(chalk.bold(`Target details`) + chalk.dim(` (${source})`));
    const details = new Table({ head: ['setting', 'value'], style: { head: [], border: [] } });
    // the faults it cannot apply are listed above, once; the proxies get a table of their own below
    for (const [key, value] of Object.entries(d.strategy))
      if (key !== 'unsupported_faults' && key !== 'proxies') details.push([key, settingText(value)]);
    out.push(details.toString());
    const proxies = Array.isArray(d.strategy.proxies) ? (d.strategy.proxies as ProxyReport[]) : [];
    if (proxies.length > 0) {
      const table = new Table({ head: ['proxy', 'agents', 'listen', 'upstream'], style: { head: [], border: [] } });
      for (const p of proxies) table.push([p.kind, p.agents.join(', '), p.listen, p.upstream]);
      out.push('', chalk.bold('Proxies'), renderFitted(table, width));
    }
    return `${out.join('\n')}\n`;
  }
  out.push(chalk.bold(`Recovery strategy`) + chalk.dim(` (${source})`));
  const strategy = new Table({ head: ['mechanism', 'on', 'settings'], style: { head: [], border: [] } });
  for (const [section, fields] of Object.entries(d.strategy as Record<string, Record<string, unknown>>)) {
    const { enabled, ...rest } = fields;
    const settings = Object.entries(rest).map(([k, v]) =>
      k.endsWith('_ms') && typeof v === 'number' ? `${k.slice(0, -3)} ${formatDuration(v)}` : `${k} ${String(v)}`,
    );
    strategy.push([section, enabled ? chalk.green('yes') : chalk.red('no'), settings.join(', ')]);
  }
  out.push(renderFitted(strategy, width));
  return `${out.join('\n')}\n`;
}

/** a target detail for a person: lists joined, objects as `key value` pairs, nothing as '-' (never raw JSON) */
function settingText(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(settingText).join(', ');
  if (typeof value === 'object')
    return (
      Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k} ${settingText(v)}`)
        .join(', ') || '-'
    );
  return String(value);
}
