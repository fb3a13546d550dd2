export * from './types.js';
export { AgentRegistry } from './registry.js';
export {
  validateWorkflow,
  assertValidWorkflow,
  type WorkflowProblem,
  type WorkflowValidation,
  type ValidateOptions,
} from './validate.js';
export { executeWorkflow, StepTimeoutError, DEFAULT_MAX_PARALLEL, type ExecuteWorkflowOptions } from './engine.js';
export {
  WorkflowService,
  type WorkflowServiceOptions,
  type WorkflowRequest,
  type WorkflowResponse,
  type WorkflowSummary,
} from './service.js';
export {
  loadWorkflow,
  loadWorkflowFile,
  checkWorkflowText,
  MAX_WORKFLOW_FILE_BYTES,
  type WorkflowTextCheck,
} from './load.js';
