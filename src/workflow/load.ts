import { readFile, stat } from 'node:fs/promises';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { NotFoundError, UsageError } from '../shared/errors.js';
import type { WorkflowDefinition } from './types.js';
import { invalidWorkflowError, validateWorkflow, type ValidateOptions, type WorkflowProblem } from './validate.js';

/** Workflow files are small; anything bigger is a mistake or an attack. */
export const MAX_WORKFLOW_FILE_BYTES = 1024 * 1024;
/** Caps alias expansion so a "billion laughs" file cannot blow up memory. */
const MAX_ALIAS_COUNT = 50;

export interface WorkflowTextCheck {
  definition?: WorkflowDefinition;
  errors: WorkflowProblem[];
}

/** Parses and validates YAML (or JSON) text; every problem carries its path and, where known, line:column. */
export function checkWorkflowText(text: string, options: ValidateOptions = {}): WorkflowTextCheck {
  if (Buffer.byteLength(text, 'utf8') > MAX_WORKFLOW_FILE_BYTES) {
    return { errors: [{ path: '', message: `workflow text is larger than ${MAX_WORKFLOW_FILE_BYTES} bytes` }] };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        path: '',
        message: e.message.split('\n')[0],
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return { errors: [{ path: '', message: `cannot expand the document: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  const { errors } = validateWorkflow(value, options);
  if (errors.length > 0) return { errors: errors.map((p) => locate(p, doc, lineCounter)) };
  return { definition: value as WorkflowDefinition, errors: [] };
}

/** Parses a workflow definition from YAML text; invalid → UsageError listing every problem (file:line:column path: message). */
export function loadWorkflow(text: string, file?: string, options: ValidateOptions = {}): WorkflowDefinition {
  const { definition, errors } = checkWorkflowText(text, options);
  if (!definition) throw invalidWorkflowError(errors, file);
  return definition;
}

export async function loadWorkflowFile(path: string, options: ValidateOptions = {}): Promise<WorkflowDefinition> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`workflow file '${path}' is not a file`, 'invalid_workflow');
    size = info.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`workflow file '${path}' does not exist`, 'file_not_found');
    throw err;
  }
  if (size > MAX_WORKFLOW_FILE_BYTES) {
    throw new UsageError(`workflow file '${path}' is ${size} bytes; the limit is ${MAX_WORKFLOW_FILE_BYTES}`, 'file_too_large');
  }
  return loadWorkflow(await readFile(path, 'utf8'), path, options);
}

/** `steps[2].depends_on[0]` → ['steps', 2, 'depends_on', 0] */
export function pathSegments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/** Adds line:column from the deepest node that exists along the problem's path. */
function locate(problem: WorkflowProblem, doc: Document, lc: LineCounter): WorkflowProblem {
  let node: unknown = doc.contents;
  let offset: number | undefined = rangeStart(node);
  for (const seg of pathSegments(problem.path)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      // point unknown keys at the key itself, everything else at the value
      offset = rangeStart(pair.value) ?? rangeStart(pair.key) ?? offset;
      if (problem.message.startsWith('unknown key')) offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
      node = node.items[seg];
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  if (offset === undefined) return problem;
  const { line, col } = lc.linePos(offset);
  return { ...problem, line, column: col };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}
