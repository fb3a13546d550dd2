import { readFile, stat } from 'node:fs/promises';
import { NotFoundError, UsageError } from '../shared/errors.js';
import type { WorkflowDefinition } from './types.js';
import { invalidWorkflowError, validateWorkflow, type ValidateOptions, type WorkflowProblem } from './validate.js';
import { MAX_YAML_BYTES, parseYamlSource } from '../shared/yaml-source.js';

/** Workflow files are small; anything bigger is a mistake or an attack. */
export const MAX_WORKFLOW_FILE_BYTES = MAX_YAML_BYTES;

export interface WorkflowTextCheck {
  definition?: WorkflowDefinition;
  errors: WorkflowProblem[];
}

/** Parses and validates YAML (or JSON) text; every problem carries its path and, where known, line:column. */
export function checkWorkflowText(text: string, options: ValidateOptions = {}): WorkflowTextCheck {
  const source = parseYamlSource(text, MAX_WORKFLOW_FILE_BYTES);
  if (source.errors.length > 0) return { errors: source.errors };
  const { errors } = validateWorkflow(source.value, options);
  if (errors.length > 0) return { errors: errors.map((p) => source.locate(p)) };
  return { definition: source.value as WorkflowDefinition, errors: [] };
}

/** Parses a workflow definition from YAML text; invalid → UsageError listing every problem (file:line:column path: message). */
export function loadWorkflow(text: string, file?: string, options: ValidateOptions = {}): WorkflowDefinition {
  const { definition, errors } = checkWorkflowText(text, options);
  if (!definition) throw invalidWorkflowError(errors, file);
  return definition;
}

export async function loadWorkflowFile(path: string, options: ValidateOptions = {}): Promise<WorkflowDefinition> {
  return loadWorkflow(await readSmallFile(path, MAX_WORKFLOW_FILE_BYTES, 'workflow'), path, options);
}

/** reads a text file after checking it exists, is a file and is under `maxBytes` */
export async function readSmallFile(path: string, maxBytes: number, what: string): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${what} file '${path}' is not a file`, 'invalid_file');
    size = info.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`${what} file '${path}' does not exist`, 'file_not_found');
    throw err;
  }
  if (size > maxBytes) throw new UsageError(`${what} file '${path}' is ${size} bytes; the limit is ${maxBytes}`, 'file_too_large');
  return readFile(path, 'utf8');
}
