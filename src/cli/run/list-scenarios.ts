import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Table from 'cli-table3';
import { checkScenarioFile } from '../../arena/scenario/load.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { renderFitted, terminalWidth } from '../output/fit.js';
import { SCHEMA_VERSION } from '../output/json.js';

interface Listed {
  file: string;
  valid: boolean;
  name?: string;
  description?: string;
  tags: string[];
  actions: number;
  problems: number;
}

export async function listCommand(dir: string, opts: { json?: boolean }, ctx: CliContext): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(resolve(ctx.cwd, dir))).filter((f) => /\.(ya?ml|json)$/i.test(f)).sort();
  } catch (err) {
    throw listError(dir, err);
  }
  const listed = await Promise.all(
    names.map(async (name): Promise<Listed> => {
      const file = join(dir, name);
      try {
        const r = await checkScenarioFile(resolve(ctx.cwd, file));
        if (!r.valid) return { file, valid: false, tags: [], actions: 0, problems: r.errors.length };
        const s = r.scenario!;
        return {
          file,
          valid: true,
          name: s.name,
          ...(s.description ? { description: s.description } : {}),
          tags: s.tags,
          actions: s.actions.length,
          problems: 0,
        };
      } catch (err) {
        return { file, valid: false, description: errorMessage(err), tags: [], actions: 0, problems: 1 };
      }
    }),
  );
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ schema_version: SCHEMA_VERSION, dir, scenarios: listed }, null, 2)}\n`);
    return;
  }
  if (listed.length === 0) {
    ctx.stdout.write(`no scenario files (*.yaml, *.yml, *.json) in ${dir}\n`);
    return;
  }
  const table = new Table({
    head: ['name', 'description', 'tags', 'actions', 'file'],
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [null, 50, null, null, null] as never,
  });
  for (const s of listed) {
    table.push(
      s.valid
        ? [s.name!, s.description ?? '', s.tags.join(', '), String(s.actions), s.file]
        : ['(invalid)', `${s.problems} problem(s): run arena scenario validate ${s.file}`, '', '-', s.file],
    );
  }
  ctx.stdout.write(`${renderFitted(table, terminalWidth(ctx.stdout))}\n`);
}

/** a person's wording for why a folder cannot be listed, not the raw `ENOENT: …, scandir` */
function listError(dir: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT')
    return new UsageError(`scenario folder not found: ${dir}`, {
      code: 'not_found',
      hint: 'give the folder that holds the scenario files, e.g. arena scenario list scenarios',
    });
  if (code === 'ENOTDIR')
    return new UsageError(
      `${dir} is a file, not a folder: list a folder, or validate the file with arena scenario validate ${dir}`,
      { code: 'not_a_directory' },
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new UsageError(`cannot read the folder ${dir}: permission denied`, { code: 'not_readable' });
  return new UsageError(`cannot list ${dir}: ${errorMessage(err)}`, { code: 'not_a_directory' });
}
