/**
 * examples/llm-agent's target file on free ports, written into a test's own folder (ARENA_EXAMPLE_PORT,
 * for the arena that runs it, with `env` for its start command). Its scripts run through symlinks in that
 * folder (Node resolves `openai` from the real file), so a test finds its own processes in /proc and not
 * those of another test running the same example.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeBasePort } from './process-fleet.js';

export const LLM_AGENT_EXAMPLE = fileURLToPath(new URL('../../examples/llm-agent/', import.meta.url));

export async function exampleLlmAgentTarget(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ target: string; env: Record<string, string> }> {
  const base = await freeBasePort([0, 1, 2]);
  for (const script of ['fake-llm.mjs', 'agent.mjs'])
    if (!existsSync(join(dir, script))) symlinkSync(join(LLM_AGENT_EXAMPLE, script), join(dir, script));
  const text = readFileSync(join(LLM_AGENT_EXAMPLE, 'target.yaml'), 'utf8')
    .replace('node fake-llm.mjs', `node ${join(dir, 'fake-llm.mjs')}`)
    .replace('node agent.mjs', `node ${join(dir, 'agent.mjs')}`)
    .replace(/^start:\n/m, `start:\n  cwd: ${JSON.stringify(LLM_AGENT_EXAMPLE)}\n`);
  const target = join(dir, 'target.yaml');
  writeFileSync(target, text);
  return { target, env: { ARENA_EXAMPLE_PORT: String(base), ...env } };
}
