import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const FX = 'test/fixtures/scenarios';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-scenario-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena scenario validate', () => {
  it('exits 0 when every file is valid', async () => {
    const r = await arena(['scenario', 'validate', `${FX}/quick-pass.yaml`, `${FX}/expect-miss.yaml`]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`ok ${FX}/quick-pass.yaml: quick-pass (2 actions)`);
  });

  it('with --target, checks the agents it names against the target (embedded: known without starting it)', async () => {
    const target = join(dir, 'embedded.yaml');
    writeFileSync(target, 'kind: embedded\nname: mine\n');
    // without a target the names cannot be known: the file is valid
    expect((await arena(['scenario', 'validate', `${FX}/unknown-agent.yaml`])).exitCode).toBe(0);
    const r = await arena([
      'scenario',
      'validate',
      `${FX}/quick-pass.yaml`,
      `${FX}/unknown-agent.yaml`,
      '--target',
      target,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain(`ok ${FX}/quick-pass.yaml`);
    expect(r.stdout).toMatch(
      /unknown-agent\.yaml:11:\d+ actions\[1\]\.action\.target_id unknown agent "agent-9" \(the target's agents: /,
    );
  });

  it('prints every problem as file:line:col path message and exits 2', async () => {
    const r = await arena([
      'scenario',
      'validate',
      `${FX}/quick-pass.yaml`,
      `${FX}/unknown-type.yaml`,
      `${FX}/missing-target.yaml`,
      `${FX}/cycle.yaml`,
      `${FX}/broken-yaml.yaml`,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(
      new RegExp(
        `^${FX}/unknown-type.yaml:4:\\d+ actions\\[0\\]\\.action\\.type unknown action type "explode_everything"`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(
      new RegExp(`^${FX}/missing-target.yaml:4:\\d+ actions\\[0\\]\\.action\\.target_id missing target`, 'm'),
    );
    expect(r.stdout).toMatch(
      new RegExp(`^${FX}/cycle.yaml:\\d+:\\d+ actions\\[\\d\\]\\.depends_on depends_on cycle`, 'm'),
    );
    expect(r.stdout).toMatch(new RegExp(`^${FX}/broken-yaml.yaml:\\d+:\\d+ \\(yaml\\) `, 'm'));
    expect(r.stderr).toContain('4 of 5 scenario file(s) invalid');
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
  });

  it('reports label, depends_on and per-action problems together, in line:column order', async () => {
    const file = join(dir, 'mixed.yaml');
    writeFileSync(
      file,
      [
        'name: mixed',
        'actions:',
        '  - action: { type: kill_agent }',
        '    colour: red',
        '    depends_on: [nope]',
        '  - label: slow',
        '    action: { type: kill_leader }',
        '  - label: slow',
        '    action: { type: kill_leader }',
        '    expect_success: true',
        '    expect_failure: true',
        '',
      ].join('\n'),
    );
    const r = await arena(['scenario', 'validate', file]);
    expect(r.exitCode).toBe(2);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith(file));
    const at = (l: string) => l.slice(file.length + 1).split(' ')[0]!;
    expect(lines).toHaveLength(5);
    expect(lines.map(at)).toEqual(['3:13', '4:5', '5:18', '8:12', '11:21']);
    expect(lines[0]).toContain('actions[0].action.target_id missing target');
    expect(lines[1]).toContain('actions[0].colour unknown key');
    expect(lines[2]).toContain('actions[0].depends_on[0] unknown label "nope"');
    expect(lines[3]).toContain('actions[2].label duplicate label "slow"');
    expect(lines[4]).toContain('actions[2].expect_failure expect_success and expect_failure cannot both be given');
  });

  it('reports a missing file, and --json lists every file', async () => {
    const r = await arena(['scenario', 'validate', `${FX}/nope.yaml`, `${FX}/cycle.yaml`, '--json']);
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema_version).toBe(1);
    expect(doc.files.map((f: any) => f.valid)).toEqual([false, false]);
    expect(doc.files[0].errors[0].message).toContain('not found');
  });

  it('refuses a directory as a scenario file, and a YAML syntax error reads as one clean line', async () => {
    const dir = await arena(['scenario', 'validate', 'scenarios']);
    expect(dir.exitCode).toBe(2);
    expect(dir.stderr + dir.stdout).toMatch(/scenario file \S*scenarios is not a file/);
    expect(dir.stderr + dir.stdout).not.toContain('EISDIR');
    const bad = await arena(['scenario', 'validate', `${FX}/broken-yaml.yaml`]);
    expect(bad.exitCode).toBe(2);
    const line = bad.stdout.split('\n').find((l) => l.includes('broken-yaml.yaml:'))!;
    expect(line).toMatch(/broken-yaml\.yaml:\d+:\d+ /);
    expect(line).not.toMatch(/:\s*$/);
  });

  it('a syntax error in a .json scenario is a JSON error at line:column, not a YAML one', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{\n  "name": "x",\n  "actions": [\n    { "action": { "type": "kill_leader" } },\n  ]\n}\n');
    const r = await arena(['scenario', 'validate', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain(`${file}:5:3 (json) JSON syntax error: expected a value after the comma, found ']'`);
    expect(r.stdout + r.stderr).not.toMatch(/yaml/i);
  });
});

describe('arena scenario list', () => {
  it('lists name, description, tags and action count', async () => {
    const r = await arena(['scenario', 'list', FX, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    const quick = doc.scenarios.find((s: any) => s.name === 'quick-pass');
    expect(quick).toMatchObject({
      description: expect.stringContaining('Kill the leader'),
      tags: ['fixture', 'failover'],
      actions: 2,
      valid: true,
    });
    expect(doc.scenarios.filter((s: any) => !s.valid).length).toBe(4);
    const table = await arena(['scenario', 'list', FX]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/quick-pass.*fixture, failover.*2/);
  });

  it('lists the shipped scenarios by default and fails on a missing directory', async () => {
    const r = await arena(['scenario', 'list']);
    expect(r.exitCode).toBe(0);
    const missing = await arena(['scenario', 'list', 'no/such/dir']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('scenario folder not found: no/such/dir');
    expect(missing.stderr).not.toMatch(/ENOENT|scandir/);
  });
});
