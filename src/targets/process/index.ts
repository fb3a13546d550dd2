export { createProcessTarget, type ProcessTargetOptions } from './target.js';
export { processTargetSchema, type ProcessTargetSpec, type ProcessTargetInput } from './spec.js';
