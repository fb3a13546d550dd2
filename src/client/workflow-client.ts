import { ConflictError, UsageError } from '../shared/errors.js';
import { loadWorkflowFile } from '../workflow/load.js';
import type { WorkflowResponse } from '../workflow/service.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import { isDeepStrictEqual } from 'node:util';
import type { Client } from './client.js';

/** Runs workflow definitions (objects or YAML files) through a client's workflow service. */
export class WorkflowClient {
  constructor(readonly client: Client) {
    if (!client || typeof client.workflow !== 'function')
      throw new UsageError('WorkflowClient needs a Client', { code: 'invalid_argument' });
  }

  /** loads and validates a YAML file, agent types included; errors name file:line:column */
  loadWorkflow(path: string): Promise<WorkflowDefinition> {
    return loadWorkflowFile(path, { registry: this.client.workflow().agentRegistry });
  }

  /**
   * Runs a workflow (a definition, or the id of a registered one). A new
   * definition is registered first; a different definition under an id already
   * registered is a ConflictError.
   */
  async execute(
    workflow: WorkflowDefinition | string,
    input?: unknown,
    options: { signal?: AbortSignal; execution_id?: string } = {},
  ): Promise<WorkflowResponse> {
    const service = this.client.workflow();
    let id: string;
    if (typeof workflow === 'string') id = workflow;
    else {
      id = workflow?.id;
      if (!service.hasWorkflow(id)) service.registerWorkflow(workflow);
      else if (!isDeepStrictEqual(service.getWorkflow(id), JSON.parse(JSON.stringify(workflow)))) {
        throw new ConflictError(`a different workflow '${id}' is already registered`, { code: 'workflow_exists' });
      }
    }
    return service.execute({ workflow_id: id, input, ...options });
  }

  async executeFromFile(
    path: string,
    input?: unknown,
    options: { signal?: AbortSignal; execution_id?: string } = {},
  ): Promise<WorkflowResponse> {
    return this.execute(await this.loadWorkflow(path), input, options);
  }
}
