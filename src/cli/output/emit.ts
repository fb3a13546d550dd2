/**
 * The end of every run command: write `--report` and `--junit` files (also on
 * failure and interrupt), then print the JSON document or the final table.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import type { OutputMode } from './mode.js';
import { stringifyDocument, type ReportDocument } from './json.js';

export interface EmitOptions {
  report?: string;
  junit?: string;
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
  ctx.stdout.write(mode.kind === 'json' ? json : renderTable());
  if (problems.length > 0) throw new UsageError(problems.join('; '), 'output_not_writable');
}

/** writes one output file; a failure is collected in `problems` so the other outputs still go out */
export function tryWrite(
  ctx: Pick<CliContext, 'stderr' | 'cwd'>,
  file: string,
  text: string,
  what: string,
  problems: string[],
): void {
  const path = resolve(ctx.cwd, file);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    ctx.stderr.write(`${what} written to ${file}\n`);
  } catch (err) {
    problems.push(`cannot write the ${what} to ${file}: ${errorMessage(err)}`);
  }
}

/**
 * Before a run starts: an output path that is a directory can never be written, and finding out
 * only after a long run wastes it, so it is a usage error up front.
 */
export function checkOutputPaths(
  ctx: Pick<CliContext, 'cwd'>,
  opts: { report?: unknown; junit?: unknown; saveScenario?: unknown },
): void {
  const flags: [string, unknown][] = [
    ['--report', opts.report],
    ['--junit', opts.junit],
    ['--save-scenario', opts.saveScenario],
  ];
  for (const [flag, file] of flags) {
    if (typeof file !== 'string') continue;
    if (statSync(resolve(ctx.cwd, file), { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${flag} ${file} is a directory; give a file path`, 'output_not_writable');
    }
  }
}
