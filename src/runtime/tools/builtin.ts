/**
 * The tools every agent has by default. Each does real work on its input, so
 * a hanging or timed-out call visibly costs the workload a result.
 */
import type { Clock } from '../../shared/clock.js';
import { NotFoundError, UsageError } from '../../shared/errors.js';
import { evaluateExpression } from './expression.js';

export interface ToolContext {
  /** aborted when the call times out or the caller gives up; long-running tools must honour it */
  signal: AbortSignal;
  clock: Clock;
}

export interface ToolDefinition {
  name: string;
  description: string;
  run(args: Record<string, unknown>, context: ToolContext): unknown | Promise<unknown>;
  /** what the tool promises to return (its output schema): why a result breaks the promise, or undefined */
  output?(value: unknown): string | undefined;
}

const finiteNumber = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : `expected a number, got ${JSON.stringify(value)}`;

/** a small fixed reference table for `lookup` */
export const LOOKUP_TABLE: Readonly<Record<string, string>> = Object.freeze({
  france: 'Paris',
  germany: 'Berlin',
  italy: 'Rome',
  japan: 'Tokyo',
  kenya: 'Nairobi',
  peru: 'Lima',
  spain: 'Madrid',
});

function stringArg(tool: string, args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string')
    throw new UsageError(`${tool}: argument "${name}" must be a string, got ${JSON.stringify(value)}`, {
      code: 'invalid_tool_args',
    });
  return value;
}

export const computeTool: ToolDefinition = {
  name: 'compute',
  description: 'Evaluates an arithmetic expression: { expression: "2 * (3 + 4)" } → 14',
  run: (args) => evaluateExpression(stringArg('compute', args, 'expression')),
  output: finiteNumber,
};

export const lookupTool: ToolDefinition = {
  name: 'lookup',
  description: 'Looks a country up in a small table of capitals: { key: "japan" } → "Tokyo"',
  run(args) {
    const key = stringArg('lookup', args, 'key').trim().toLowerCase();
    const value = LOOKUP_TABLE[key];
    if (value === undefined)
      throw new NotFoundError(`lookup: no entry "${key}" (known: ${Object.keys(LOOKUP_TABLE).join(', ')})`, {
        code: 'lookup_miss',
      });
    return value;
  },
  // a capital's name: letters, spaces, dots, apostrophes and hyphens, never an instruction or a code
  output: (value) =>
    typeof value === 'string' && /^\p{Lu}[\p{L} .'-]{0,59}$/u.test(value) && !/\s{2,}|\n/.test(value)
      ? undefined
      : `expected the name of a capital, got ${JSON.stringify(value).slice(0, 80)}`,
};

export const formatTool: ToolDefinition = {
  name: 'format',
  description: 'Fills {placeholders} in a template: { template: "hi {name}", values: { name: "Ada" } } → "hi Ada"',
  run(args) {
    const template = stringArg('format', args, 'template');
    const values = (args.values ?? {}) as Record<string, unknown>;
    if (typeof values !== 'object' || values === null)
      throw new UsageError('format: argument "values" must be an object', { code: 'invalid_tool_args' });
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!Object.hasOwn(values, name))
        throw new UsageError(`format: no value for placeholder {${name}}`, { code: 'invalid_tool_args' });
      return String(values[name]);
    });
  },
};

export const sleepTool: ToolDefinition = {
  name: 'sleep',
  description: 'Waits { ms } milliseconds on the injected clock, then returns the time waited',
  async run(args, { clock, signal }) {
    const ms = args.ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      throw new UsageError(`sleep: argument "ms" must be a non-negative number, got ${JSON.stringify(ms)}`, {
        code: 'invalid_tool_args',
      });
    await clock.sleep(ms, signal);
    return ms;
  },
  output: finiteNumber,
};

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [computeTool, lookupTool, formatTool, sleepTool];
