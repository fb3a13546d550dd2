/**
 * Loading scenario files through the shared YAML loader (JSON is YAML too), so
 * every problem can name its line and column. Inputs over 1 MiB and alias
 * bombs are rejected before they are expanded. The wording of these problems
 * is the `arena scenario validate` contract, so it stays scenario-specific.
 */
import { readFile, stat } from 'node:fs/promises';
import { NotFoundError, UsageError } from '../../shared/errors.js';
import { isJsonPath, MAX_YAML_BYTES, readYamlDocument } from '../../shared/yaml-source.js';
import { checkScenario, formatPath } from './validate.js';
import type { Scenario, ScenarioProblem, ScenarioValidation } from './types.js';

export const MAX_SCENARIO_BYTES = MAX_YAML_BYTES;
/** more alias expansions than this is a resource-exhaustion attack, not a scenario */

/** Validates scenario text: every problem with path, line and column. Never throws for bad input. */
export function checkScenarioText(text: string, file?: string): ScenarioValidation {
  const json = isJsonPath(file);
  const doc = readYamlDocument(text, MAX_SCENARIO_BYTES, { json });
  if (!doc.ok) {
    switch (doc.reason) {
      case 'too_large':
        return { valid: false, errors: [tooLarge(doc.bytes)] };
      case 'syntax':
        return { valid: false, errors: doc.errors.map((e) => ({ ...e, path: json ? '(json)' : '(yaml)' })) };
      case 'expand':
        return { valid: false, errors: [{ path: '(yaml)', message: `rejected: ${doc.detail}` }] };
    }
  }
  const { problems, scenario } = checkScenario(doc.value ?? null);
  if (problems.length > 0) {
    const located = problems.map((p): ScenarioProblem => {
      const pos = doc.positionOf(p.segments, p.atKey);
      return {
        path: formatPath(p.segments),
        message: p.message,
        ...(pos ? { line: pos.line, column: pos.column } : {}),
      };
    });
    return { valid: false, errors: byPosition(located) };
  }
  if (file !== undefined) scenario!.file = file;
  return { valid: true, errors: [], scenario };
}

/** Parses and validates; throws a UsageError (code invalid_scenario) listing every problem. */
export function loadScenario(text: string, file?: string): Scenario {
  const result = checkScenarioText(text, file);
  if (!result.valid) throw scenarioError(result.errors, file);
  return result.scenario!;
}

export async function checkScenarioFile(path: string): Promise<ScenarioValidation> {
  let size: number;
  let isFile: boolean;
  try {
    const info = await stat(path);
    size = info.size;
    isFile = info.isFile();
  } catch {
    throw new NotFoundError(`scenario file not found: ${path}`, { code: 'file_not_found' });
  }
  if (!isFile) throw new UsageError(`scenario file ${path} is not a file`, { code: 'invalid_file' });
  if (size > MAX_SCENARIO_BYTES) return { valid: false, errors: [tooLarge(size)] };
  return checkScenarioText(await readFile(path, 'utf8'), path);
}

export async function loadScenarioFile(path: string): Promise<Scenario> {
  const result = await checkScenarioFile(path);
  if (!result.valid) throw scenarioError(result.errors, path);
  return result.scenario!;
}

export function formatProblem(p: ScenarioProblem, file?: string): string {
  const where = [file, p.line, p.column].filter((x) => x !== undefined).join(':');
  return `${where ? `${where} ` : ''}${p.path} ${p.message}`;
}

function scenarioError(errors: ScenarioProblem[], file?: string): UsageError {
  const list = errors.map((e) => `  ${formatProblem(e, file)}`).join('\n');
  return new UsageError(`invalid scenario${file ? ` ${file}` : ''}: ${errors.length} problem(s)\n${list}`, {
    code: 'invalid_scenario',
    details: errors,
  });
}

function tooLarge(bytes: number): ScenarioProblem {
  return { path: '(file)', message: `scenario is ${bytes} bytes; the limit is ${MAX_SCENARIO_BYTES} (1 MiB)` };
}

/** In file order (line, then column), as a reader scans the file; problems without a position keep their order, last. */
function byPosition(problems: ScenarioProblem[]): ScenarioProblem[] {
  const key = (p: ScenarioProblem) => (p.line === undefined ? Infinity : p.line * 1e6 + (p.column ?? 0));
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => key(a.p) - key(b.p) || a.i - b.i)
    .map((x) => x.p);
}
