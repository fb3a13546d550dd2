/**
 * `--otlp URL` (or the OTEL_EXPORTER_OTLP_* variables): OpenTelemetry traces
 * over OTLP/HTTP. On the run commands it is a run plugin (a span per run, a
 * child span per fault); `serve` and `proxy llm` declare the same option with
 * `addOtlpOption` and open tracing with `openTracing`. The SDK loads only when
 * tracing is on.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { RunPlugin } from '../run-plugin.js';
import { resolveOtlpConfig } from '../../shared/otlp/config.js';
import type { Tracing } from '../../shared/otlp/tracing.js';

export function addOtlpOption(command: Command): Command {
  return command.option(
    '--otlp <url>',
    'send OpenTelemetry traces over OTLP/HTTP to this collector (e.g. http://127.0.0.1:4318; or set OTEL_EXPORTER_OTLP_ENDPOINT)',
  );
}

/** tracing for a command, or undefined when neither --otlp nor the variables ask for it; its `close` flushes (bounded) and reports */
export async function openTracing(
  flag: unknown,
  ctx: CliContext,
  serviceName: string,
): Promise<{ tracing: Tracing; close(): Promise<void> } | undefined> {
  const config = resolveOtlpConfig(typeof flag === 'string' ? flag : undefined, ctx.env, serviceName);
  if (!config) return undefined;
  const { startTracing, exportSummary } = await import('../../shared/otlp/tracing.js');
  const tracing = await startTracing(config);
  ctx.stderr.write(`arena: tracing to ${config.url} (${config.protocol})\n`);
  return {
    tracing,
    async close() {
      ctx.stderr.write(`${exportSummary(await tracing.shutdown(), config)}\n`);
    },
  };
}

/** `--otlp` on `scenario run`, `survival` and `replay` (a run plugin, see ../run-plugins.ts) */
export const otlpPlugin: RunPlugin = {
  name: 'otlp',
  addOptions: addOtlpOption,
  async attach(options, ctx) {
    const opened = await openTracing(options.otlp, ctx, 'chaos-arena');
    if (!opened) return undefined;
    const { traceRuns } = await import('../../bootstrap/run-tracing.js');
    // the tracing goes to the target too: the LLM proxies a process target starts trace the agents' calls
    return { listener: traceRuns(opened.tracing), tracing: opened.tracing, close: () => opened.close() };
  },
};
