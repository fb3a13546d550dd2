/**
 * `arena describe`: what the default embedded target looks like — its agents
 * (id, role, status, restarts), the steady-state workflow DAG, and the
 * recovery strategy in force — so scenarios can be written against it.
 */
import type { Command } from 'commander';
import Table from 'cli-table3';
import chalk from 'chalk';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import type { Strategy } from '../../runtime/strategy.js';
import { formatDuration } from '../../shared/duration.js';
import type { TargetDescription } from '../../arena/providers.js';

interface DescribeOptions {
  json?: boolean;
  strategy?: string;
  color?: boolean;
}

export function registerDescribeCommand(program: Command, ctx: CliContext): void {
  program
    .command('describe')
    .description('Show the embedded target: agents (id, role, status, restarts), DAG nodes and edges, recovery strategy')
    .option('--json', 'print one JSON document on stdout and nothing else there')
    .option('--strategy <file>', 'recovery strategy (YAML) to describe instead of the built-in default')
    .option('--no-color', 'no colour')
    .addHelpText(
      'after',
      `
Examples:
  $ arena describe
  $ arena describe --json
  $ arena describe --strategy strategies/recovery-off.yaml`,
    )
    .action(async (options: DescribeOptions) => {
      const mode = resolveOutputMode({ json: options.json, color: options.color }, ctx);
      applyColor(mode);
      // loaded here, not at the top: every command would otherwise pay for the runtime at start-up
      const { loadStrategyFile } = await import('../../runtime/strategy.js');
      const strategy = options.strategy ? await loadStrategyFile(resolve(ctx.cwd, options.strategy)) : undefined;
      const description = await describeEmbedded(strategy);
      const source = options.strategy ?? 'built-in default';
      if (mode.kind === 'json') {
        ctx.stdout.write(`${JSON.stringify({ schema_version: 1, ...description, strategy_source: source }, null, 2)}\n`);
      } else {
        ctx.stdout.write(renderDescription(description, source));
      }
    });
}

/** starts the target just long enough to elect its leader and pick its active orchestrator */
async function describeEmbedded(strategy: Strategy | undefined): Promise<TargetDescription> {
  // stopped again before the first workload tick: describing never runs the workload
  const { createEmbeddedTarget } = await import('../../targets/embedded/index.js');
  const target = createEmbeddedTarget({ strategy });
  await target.start();
  try {
    return await target.describe();
  } finally {
    await target.stop();
  }
}

export function renderDescription(d: TargetDescription, source: string): string {
  const out: string[] = [chalk.bold(`Target ${d.name}`), '', chalk.bold('Agents')];
  const agents = new Table({ head: ['id', 'role', 'status', 'restarts'], style: { head: [], border: [] } });
  for (const a of d.agents) agents.push([a.id, a.role, a.status, String(a.restarts)]);
  out.push(agents.toString(), '', chalk.bold('Workflow DAG'));
  out.push(`  nodes: ${d.dag.nodes.join(', ')}`);
  out.push(`  edges: ${d.dag.edges.map((e) => `${e.from}→${e.to}`).join(', ')}`, '');
  out.push(chalk.bold(`Recovery strategy`) + chalk.dim(` (${source})`));
  const strategy = new Table({ head: ['mechanism', 'on', 'settings'], style: { head: [], border: [] } });
  for (const [section, fields] of Object.entries(d.strategy as Record<string, Record<string, unknown>>)) {
    const { enabled, ...rest } = fields;
    const settings = Object.entries(rest).map(([k, v]) => (k.endsWith('_ms') && typeof v === 'number' ? `${k.slice(0, -3)} ${formatDuration(v)}` : `${k} ${String(v)}`));
    strategy.push([section, enabled ? chalk.green('yes') : chalk.red('no'), settings.join(', ')]);
  }
  out.push(strategy.toString());
  return `${out.join('\n')}\n`;
}
