/** `arena scenario validate`: light on purpose (no engine, no ink) so it starts fast. */
import { resolve } from 'node:path';
import { checkScenarioFile, formatProblem } from '../../arena/scenario/load.js';
import type { ScenarioProblem } from '../../arena/scenario/types.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { SCHEMA_VERSION } from '../output/json.js';

interface FileResult {
  file: string;
  valid: boolean;
  name?: string;
  actions?: number;
  errors: ScenarioProblem[];
}

export async function validateFiles(files: string[], cwd: string): Promise<FileResult[]> {
  return Promise.all(
    files.map(async (file): Promise<FileResult> => {
      try {
        const r = await checkScenarioFile(resolve(cwd, file));
        return r.valid
          ? { file, valid: true, name: r.scenario!.name, actions: r.scenario!.actions.length, errors: [] }
          : { file, valid: false, errors: r.errors };
      } catch (err) {
        return { file, valid: false, errors: [{ path: '(file)', message: errorMessage(err) }] };
      }
    }),
  );
}

export async function validateCommand(files: string[], opts: { json?: boolean }, ctx: CliContext): Promise<void> {
  const results = await validateFiles(files, ctx.cwd);
  const invalid = results.filter((r) => !r.valid);
  if (opts.json) {
    ctx.stdout.write(
      `${JSON.stringify({ schema_version: SCHEMA_VERSION, valid: invalid.length === 0, files: results }, null, 2)}\n`,
    );
  } else {
    for (const r of results) {
      if (r.valid) ctx.stdout.write(`ok ${r.file}: ${r.name} (${r.actions} action${r.actions === 1 ? '' : 's'})\n`);
      else for (const p of r.errors) ctx.stdout.write(`${formatProblem(p, r.file)}\n`);
    }
  }
  if (invalid.length > 0) {
    const problems = invalid.reduce((n, r) => n + r.errors.length, 0);
    throw new UsageError(
      `${invalid.length} of ${results.length} scenario file(s) invalid (${problems} problem(s))`,
      'invalid_scenario',
    );
  }
}
