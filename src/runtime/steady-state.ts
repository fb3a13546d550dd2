/**
 * The steady-state workflow and what each of its steps really does on an
 * agent: fetch (MCP), plan (the leader's LLM), tool (toolbox), recall (memory
 * written by earlier runs), answer (LLM + an acknowledged memory write).
 * Every run's expected output is a pure function of its input, so a wrong
 * answer is detected, not just a failed one.
 */
import type { WorkflowDefinition } from '../workflow/index.js';
import { LOOKUP_TABLE } from './tools/index.js';

export const STEADY_STATE_WORKFLOW: WorkflowDefinition = Object.freeze({
  id: 'steady-state',
  name: 'Steady-state workload',
  description: 'fetch → plan → (tool, recall) → answer, run continuously to measure availability and consistency',
  output_step: 'answer',
  steps: [
    { id: 'fetch', agent_type: 'fetch' },
    { id: 'plan', agent_type: 'plan', depends_on: ['fetch'] },
    { id: 'tool', agent_type: 'tool', depends_on: ['plan'] },
    { id: 'recall', agent_type: 'recall', depends_on: ['plan'] },
    { id: 'answer', agent_type: 'answer', depends_on: ['tool', 'recall'] },
  ],
}) as WorkflowDefinition;

const COUNTRIES = Object.keys(LOOKUP_TABLE).sort();

export interface RunInput {
  run: number;
  country: string;
  a: number;
  b: number;
}

export interface RunOutput {
  run: number;
  answer: string;
  recall_verified: boolean;
}

export function runInput(run: number): RunInput {
  return { run, country: COUNTRIES[run % COUNTRIES.length]!, a: (run * 7) % 97, b: 3 + (run % 11) };
}

/** what the MCP `fetch` step returns for a country (the in-process MCP server's echo of it) */
export function fetchText(country: string): string {
  return `doc:${country}`;
}

export function expectedOutput(input: RunInput): RunOutput {
  return {
    run: input.run,
    answer: `${LOOKUP_TABLE[input.country]}|${input.a * input.b}|${fetchText(input.country)}`,
    recall_verified: true,
  };
}

/** memory slot a run writes: a bounded ring, so memory does not grow without end */
export const MEMORY_SLOTS = 64;
export function memoryKey(run: number): string {
  return `answer:${run % MEMORY_SLOTS}`;
}

/** deep equality of JSON data, whatever the key order */
export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
