/**
 * Loading scenario files. YAML (JSON is YAML too) is parsed into a document
 * with a line counter so every problem can name its line and column. Inputs
 * over 1 MiB and alias bombs are rejected before they are expanded.
 */
import { readFile, stat } from 'node:fs/promises';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { NotFoundError, UsageError } from '../../shared/errors.js';
import { checkScenario, formatPath, type RawProblem } from './validate.js';
import type { Scenario, ScenarioProblem, ScenarioValidation } from './types.js';

export const MAX_SCENARIO_BYTES = 1024 * 1024;
/** more alias expansions than this is a resource-exhaustion attack, not a scenario */
export const MAX_ALIAS_COUNT = 50;

/** Validates scenario text: every problem with path, line and column. Never throws for bad input. */
export function checkScenarioText(text: string, file?: string): ScenarioValidation {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SCENARIO_BYTES) {
    return { valid: false, errors: [{ path: '(file)', message: `scenario is ${bytes} bytes; the limit is ${MAX_SCENARIO_BYTES} (1 MiB)` }] };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      valid: false,
      errors: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return { path: '(yaml)', message: firstLine(e.message), ...(pos ? { line: pos.line, column: pos.col } : {}) };
      }),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return { valid: false, errors: [{ path: '(yaml)', message: `rejected: ${(err as Error).message}` }] };
  }
  const { problems, scenario } = checkScenario(value ?? null);
  if (problems.length > 0) {
    return { valid: false, errors: byPosition(problems.map((p) => locate(p, doc.contents as Node | null, lineCounter))) };
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
  try {
    size = (await stat(path)).size;
  } catch {
    throw new NotFoundError(`scenario file not found: ${path}`, 'file_not_found');
  }
  if (size > MAX_SCENARIO_BYTES) {
    return { valid: false, errors: [{ path: '(file)', message: `scenario is ${size} bytes; the limit is ${MAX_SCENARIO_BYTES} (1 MiB)` }] };
  }
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
  return new UsageError(`invalid scenario${file ? ` ${file}` : ''}: ${errors.length} problem(s)\n${list}`, 'invalid_scenario', {
    details: errors,
  });
}

/** Finds the YAML node behind a problem path (the deepest that exists) and its line:column. */
function locate(problem: RawProblem, root: Node | null, lc: LineCounter): ScenarioProblem {
  const out: ScenarioProblem = { path: formatPath(problem.segments), message: problem.message };
  let node: Node | null = root;
  for (let i = 0; i < problem.segments.length && node; i++) {
    const seg = problem.segments[i]!;
    const last = i === problem.segments.length - 1;
    let next: Node | null = null;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair) next = (last && problem.atKey ? (pair.key as Node) : (pair.value as Node | null)) ?? (pair.key as Node);
    } else if (isSeq(node) && typeof seg === 'number') {
      next = (node.items[seg] as Node | undefined) ?? null;
    }
    if (!next) break;
    node = next;
  }
  const offset = node?.range?.[0];
  if (offset !== undefined) {
    const pos = lc.linePos(offset);
    out.line = pos.line;
    out.column = pos.col;
  }
  return out;
}

/** In file order (line, then column), as a reader scans the file; problems without a position keep their order, last. */
function byPosition(problems: ScenarioProblem[]): ScenarioProblem[] {
  const key = (p: ScenarioProblem) => (p.line === undefined ? Infinity : p.line * 1e6 + (p.column ?? 0));
  return problems.map((p, i) => ({ p, i })).sort((a, b) => key(a.p) - key(b.p) || a.i - b.i).map((x) => x.p);
}

function firstLine(message: string): string {
  return message.split('\n')[0]!;
}
