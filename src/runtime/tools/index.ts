export { createToolbox, ToolTimeoutError, type ToolAttempt, type Toolbox, type ToolboxOptions } from './toolbox.js';
export { LOOKUP_TABLE, type ToolDefinition } from './builtin.js';
export { evaluateExpression } from './expression.js';
