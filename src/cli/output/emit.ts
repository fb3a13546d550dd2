/**
 * The end of every run command: write `--report` and `--junit` files (also on
 * failure and interrupt), then print the JSON document or the final table.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import type { FinishedRun } from './metrics-file.js';
import type { OutputMode } from './mode.js';
import { stringifyDocument, type ReportDocument } from './json.js';

export interface EmitOptions {
  report?: string;
  junit?: string;
  /** `--metrics-file`: where, and the text (rendered beforehand: prom-client is asynchronous) */
  metrics?: { file: string; text: string };
}

export function emitDocument(
  ctx: Pick<CliContext, 'stdout' | 'stderr' | 'cwd'>,
  mode: OutputMode,
  doc: ReportDocument,
  renderTable: () => string,
  renderJUnit: () => string,
  files: EmitOptions,
): void {
  const json = stringifyDocument(doc);
  const problems: string[] = [];
  if (files.report) tryWrite(ctx, files.report, json, 'report', problems);
  if (files.junit) tryWrite(ctx, files.junit, renderJUnit(), 'JUnit report', problems);
  if (files.metrics) tryWrite(ctx, files.metrics.file, files.metrics.text, 'metrics', problems, { atomic: true });
  ctx.stdout.write(mode.kind === 'json' ? json : renderTable());
  if (problems.length > 0) throw new UsageError(problems.join('; '), { code: 'output_not_writable' });
}

/** the `metrics` of EmitOptions when `--metrics-file` was given (prom-client loads only then) */
export async function metricsOutput(
  file: string | undefined,
  runs: () => readonly FinishedRun[],
): Promise<{ metrics?: { file: string; text: string } }> {
  if (file === undefined) return {};
  const { renderRunMetrics } = await import('./metrics-file.js');
  return { metrics: { file, text: await renderRunMetrics(runs()) } };
}

/** writes one output file; a failure is collected in `problems` so the other outputs still go out */
export function tryWrite(
  ctx: Pick<CliContext, 'stderr' | 'cwd'>,
  file: string,
  text: string,
  what: string,
  problems: string[],
  options: { atomic?: boolean } = {},
): void {
  const path = resolve(ctx.cwd, file);
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (options.atomic) writeAtomically(path, text);
    else writeFileSync(path, text);
    ctx.stderr.write(`${what} written to ${file}\n`);
  } catch (err) {
    problems.push(`cannot write the ${what} to ${file}: ${errorMessage(err)}`);
  }
}

/**
 * Written beside the file, then renamed over it: a reader (node_exporter's textfile collector) sees
 * the old file or the new one, never half of one. The temporary name does not end in `.prom`, so
 * the collector skips it.
 */
function writeAtomically(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Before a run starts: an output path that is a directory can never be written, and finding out
 * only after a long run wastes it, so it is a usage error up front.
 */
export function checkOutputPaths(
  ctx: Pick<CliContext, 'cwd'>,
  opts: { report?: unknown; junit?: unknown; saveScenario?: unknown; metricsFile?: unknown },
): void {
  const flags: [string, unknown][] = [
    ['--report', opts.report],
    ['--junit', opts.junit],
    ['--save-scenario', opts.saveScenario],
    ['--metrics-file', opts.metricsFile],
  ];
  for (const [flag, file] of flags) {
    if (typeof file !== 'string') continue;
    if (statSync(resolve(ctx.cwd, file), { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${flag} ${file} is a directory; give a file path`, { code: 'output_not_writable' });
    }
  }
}
