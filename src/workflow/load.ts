import { readSmallFile } from '../shared/files.js';
import type { WorkflowDefinition } from './types.js';
import { invalidWorkflowError, validateWorkflow, type ValidateOptions, type WorkflowProblem } from './validate.js';
import { isJsonPath, MAX_YAML_BYTES, parseYamlSource } from '../shared/yaml-source.js';

/** Workflow files are small; anything bigger is a mistake or an attack. */
export const MAX_WORKFLOW_FILE_BYTES = MAX_YAML_BYTES;

export interface WorkflowTextCheck {
  definition?: WorkflowDefinition;
  errors: WorkflowProblem[];
}

/** Parses and validates YAML (or JSON) text; every problem carries its path and, where known, line:column. */
export function checkWorkflowText(text: string, options: ValidateOptions = {}, file?: string): WorkflowTextCheck {
  const source = parseYamlSource(text, MAX_WORKFLOW_FILE_BYTES, { json: isJsonPath(file) });
  if (source.errors.length > 0) return { errors: source.errors };
  const { errors } = validateWorkflow(source.value, options);
  if (errors.length > 0) return { errors: errors.map((p) => source.locate(p)) };
  return { definition: source.value as WorkflowDefinition, errors: [] };
}

/** Parses a workflow definition from YAML text; invalid → UsageError listing every problem (file:line:column path: message). */
export function loadWorkflow(text: string, file?: string, options: ValidateOptions = {}): WorkflowDefinition {
  const { definition, errors } = checkWorkflowText(text, options, file);
  if (!definition) throw invalidWorkflowError(errors, file);
  return definition;
}

export async function loadWorkflowFile(path: string, options: ValidateOptions = {}): Promise<WorkflowDefinition> {
  return loadWorkflow(await readSmallFile(path, MAX_WORKFLOW_FILE_BYTES, 'workflow'), path, options);
}

export { readSmallFile };
