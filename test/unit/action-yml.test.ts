/**
 * Issue 36: the composite action at the repo root (action.yml) is well formed:
 * every `inputs.X` it references is declared, every script is valid bash and
 * reads only the variables its step sets, and it uploads the JUnit and the report.
 */
import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface ActionYml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const text = readFileSync('action.yml', 'utf8');
const action = parse(text) as ActionYml;

describe('action.yml', () => {
  it('is a composite action whose every referenced input is declared and described', () => {
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    expect(action.runs.using).toBe('composite');
    const referenced = new Set([...text.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]!));
    expect(referenced.size).toBeGreaterThan(5);
    for (const name of referenced) expect(Object.keys(action.inputs), `inputs.${name}`).toContain(name);
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    // every output points at a step that exists
    for (const output of Object.values(action.outputs ?? {})) {
      const id = /steps\.([\w-]+)\.outputs/.exec(output.value)?.[1];
      expect(action.runs.steps.map((s) => s.id)).toContain(id);
    }
  });

  it('every run step names its shell, is valid bash and reads only the variables it sets (or the runner sets)', async () => {
    const runnerVars = new Set(['GITHUB_OUTPUT', 'BASH_REMATCH']);
    for (const step of action.runs.steps.filter((s) => s.run !== undefined)) {
      expect(step.shell, step.name).toBe('bash');
      const syntax = await execa('bash', ['-n'], { input: step.run!, reject: false });
      expect(syntax.exitCode, `${step.name}: ${syntax.stderr}`).toBe(0);
      // inputs reach scripts through env only: `${{ }}` inside a script is an injection hole
      expect(step.run, step.name).not.toContain('${{');
      const used = new Set([...step.run!.matchAll(/\$\{?([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
      for (const v of used)
        if (!runnerVars.has(v)) expect(Object.keys(step.env ?? {}), `${step.name}: $${v}`).toContain(v);
    }
  });

  it('uploads the JUnit and the report even when the run failed', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toContain('junit.xml');
    expect(upload?.with?.path).toContain('report.json');
  });
});
