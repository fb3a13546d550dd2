/** `arena scenario validate`: light on purpose (no engine, no ink) so it starts fast. */
import { resolve } from 'node:path';
import { checkScenarioFile, formatProblem } from '../../arena/scenario/load.js';
import type { ScenarioProblem } from '../../arena/scenario/types.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { SCHEMA_VERSION } from '../output/json.js';
import { readFile } from 'node:fs/promises';
import { parseYamlSource } from '../../shared/yaml-source.js';
import { unknownTargetProblems, type TargetNames } from '../../arena/target-names.js';

interface FileResult {
  file: string;
  valid: boolean;
  name?: string;
  actions?: number;
  errors: ScenarioProblem[];
}

/** with `--target`: the agents, nodes and edges a run could aim at, when known before the target starts */
async function knownNames(target: string, ctx: CliContext): Promise<TargetNames | undefined> {
  const { loadTargetFile } = await import('../../targets/file.js');
  const loaded = await loadTargetFile(resolve(ctx.cwd, target), target);
  if (loaded.kind !== 'embedded') {
    // a process or remote target says what it has when it starts: a run checks then, before any fault
    ctx.stderr.write(
      `note: target ${loaded.name} (${loaded.kind}) tells its agents when it starts; names are checked then\n`,
    );
    return undefined;
  }
  // the embedded runtime's names are fixed (DESIGN §3): known without starting it
  const t = await loaded.create({ seed: 1 });
  try {
    const d = await t.describe();
    return { agents: d.agents.map((a) => a.id), dag: d.dag };
  } finally {
    await t.stop().catch(() => undefined);
  }
}

/** the scenario's actions the target does not name, each at its line:column */
async function namesProblems(file: string, cwd: string, names: TargetNames): Promise<ScenarioProblem[]> {
  const path = resolve(cwd, file);
  const r = await checkScenarioFile(path);
  if (!r.valid) return [];
  const problems = unknownTargetProblems(
    r.scenario!.actions.map((step, i) => ({ path: `actions[${i}].action`, action: step.action })),
    names,
  );
  if (problems.length === 0) return [];
  const source = parseYamlSource(await readFile(path, 'utf8'));
  return problems.map((p) => source.locate(p));
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

export async function validateCommand(
  files: string[],
  opts: { json?: boolean; target?: string },
  ctx: CliContext,
): Promise<void> {
  const results = await validateFiles(files, ctx.cwd);
  const names = opts.target !== undefined ? await knownNames(opts.target, ctx) : undefined;
  if (names)
    for (const r of results) {
      if (!r.valid) continue;
      const errors = await namesProblems(r.file, ctx.cwd, names);
      if (errors.length > 0) Object.assign(r, { valid: false, errors });
    }
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
    throw new UsageError(`${invalid.length} of ${results.length} scenario file(s) invalid (${problems} problem(s))`, {
      code: 'invalid_scenario',
    });
  }
}
