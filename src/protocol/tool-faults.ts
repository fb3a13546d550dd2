/**
 * The vocabulary of `tool_fault` (DESIGN §3, §13.2): its modes and the
 * parameters each takes, shared by the MCP proxy, scenarios and HTTP.
 */
import { z } from 'zod';

export const TOOL_FAULT_MODES = ['truncate', 'empty', 'corrupt', 'inject', 'schema_drift', 'duplicate_call'] as const;
export type ToolFaultMode = (typeof TOOL_FAULT_MODES)[number];

export const TOOL_FAULT_PARAMS = ['mode', 'tool', 'keep', 'payload', 'hide', 'rename'] as const;

/** The published shape of a tool_fault's parameters (JSON Schemas); toolFaultProblems is the check. */
export const toolFaultShape = {
  mode: z.enum(TOOL_FAULT_MODES).describe('what the tool results get (DESIGN §13.2)'),
  tool: z.string().min(1).describe('a tool name or glob (* and ?); every tool when not given').optional(),
  keep: z.number().min(0).max(1).describe('truncate: the fraction of the text kept (default 0.5)').optional(),
  payload: z
    .string()
    .min(1)
    .describe('inject: the text appended; by default an instruction carrying the canary ARENA-CANARY-<fault id>')
    .optional(),
  hide: z.array(z.string()).describe('schema_drift: tools left out of the tool list').optional(),
  rename: z
    .record(z.string(), z.record(z.string(), z.string()))
    .describe('schema_drift: {tool: {from: to}}, input fields renamed')
    .optional(),
};

const ONLY: Record<string, ToolFaultMode[]> = {
  keep: ['truncate'],
  payload: ['inject'],
  hide: ['schema_drift'],
  rename: ['schema_drift'],
};

export interface ToolFaultProblem {
  field: string;
  message: string;
}

/** Every problem with a tool_fault's parameters; `extra` are keys the caller checks itself (`duration`). */
export function toolFaultProblems(p: Record<string, unknown>, extra: readonly string[] = []): ToolFaultProblem[] {
  const problems: ToolFaultProblem[] = [];
  for (const key of Object.keys(p))
    if (!(TOOL_FAULT_PARAMS as readonly string[]).includes(key) && !extra.includes(key))
      problems.push({ field: key, message: `tool_fault takes ${[...TOOL_FAULT_PARAMS, ...extra].join(', ')}` });
  if (typeof p.mode !== 'string' || !(TOOL_FAULT_MODES as readonly string[]).includes(p.mode)) {
    problems.push({ field: 'mode', message: `expected one of ${TOOL_FAULT_MODES.join(', ')}` });
    return problems;
  }
  const mode = p.mode as ToolFaultMode;
  for (const [key, modes] of Object.entries(ONLY))
    if (p[key] !== undefined && !modes.includes(mode))
      problems.push({ field: key, message: `only ${modes.join(', ')} takes it, not ${mode}` });
  if (p.tool !== undefined && (typeof p.tool !== 'string' || p.tool === ''))
    problems.push({ field: 'tool', message: 'expected a tool name or glob (* and ?)' });
  if (p.keep !== undefined && (typeof p.keep !== 'number' || !(p.keep >= 0 && p.keep <= 1)))
    problems.push({ field: 'keep', message: 'expected a fraction from 0 to 1' });
  if (p.payload !== undefined && (typeof p.payload !== 'string' || p.payload === ''))
    problems.push({ field: 'payload', message: 'expected a non-empty string' });
  if (p.hide !== undefined && (!Array.isArray(p.hide) || p.hide.some((h) => typeof h !== 'string')))
    problems.push({ field: 'hide', message: 'expected a list of tool names' });
  if (p.rename !== undefined && !isRenameMap(p.rename))
    problems.push({ field: 'rename', message: 'expected {tool: {from: to}} with string names' });
  const hides = Array.isArray(p.hide) ? p.hide.length : 0;
  const renames = isRenameMap(p.rename) ? Object.keys(p.rename).length : 0;
  if (mode === 'schema_drift' && hides === 0 && renames === 0)
    problems.push({ field: 'hide', message: 'schema_drift needs hide, rename or both' });
  return problems;
}

export function isRenameMap(v: unknown): v is Record<string, Record<string, string>> {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x);
  return (
    isObject(v) && Object.values(v).every((m) => isObject(m) && Object.values(m).every((x) => typeof x === 'string'))
  );
}
