export { createToolbox, ToolTimeoutError, type Toolbox, type ToolboxOptions, type ToolStats } from './toolbox.js';
export { BUILTIN_TOOLS, LOOKUP_TABLE, type ToolDefinition, type ToolContext } from './builtin.js';
export { evaluateExpression } from './expression.js';
