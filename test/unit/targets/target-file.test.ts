import { describe, expect, it } from 'vitest';
import { checkTargetText } from '../../../src/targets/file.js';

describe('target files', () => {
  it('accepts a remote target and reads its durations', () => {
    const { problems, spec } = checkTargetText(
      'kind: remote\nname: payments\nurl: "http://127.0.0.1:9500"\ntoken_env: TOKEN\nlease: 2s\n',
    );
    expect(problems).toEqual([]);
    expect(spec).toEqual({
      kind: 'remote',
      name: 'payments',
      url: 'http://127.0.0.1:9500',
      token_env: 'TOKEN',
      lease: 2000,
    });
  });

  it('accepts an embedded target with a strategy file', () => {
    expect(checkTargetText('kind: embedded\nname: mine\nstrategy: strategies/recovery-off.yaml\n').problems).toEqual(
      [],
    );
  });

  it('reports every problem at its line:column, unknown keys at the key', () => {
    const { problems } = checkTargetText(
      'kind: remote\nname: ""\nurl: ftp://x\nextra: 1\nlease: soon\ntoken_env: "not a var"\n',
    );
    expect(problems.map((p) => [p.path, p.line, p.column])).toEqual([
      ['name', 2, 7],
      ['url', 3, 6],
      ['extra', 4, 1],
      ['lease', 5, 8],
      ['token_env', 6, 12],
    ]);
    expect(problems.find((p) => p.path === 'extra')!.message).toBe('unknown key "extra"');
  });

  it('parses JSON paths in expect and leader when the file is read: a malformed one is an error at its line:column', () => {
    const text = [
      'kind: process',
      'name: fleet',
      'agents:',
      '  - { id: w1, role: worker, pid: { port: 7101 }, health: { tcp: "127.0.0.1:7101" } }',
      'leader: { http: "http://127.0.0.1:7000/leader", json: "$.leader[" }',
      'workload:',
      '  rate: 5/s',
      '  request: { url: "http://127.0.0.1:7000/task" }',
      '  expect: { json: { path: "$.answer[", equals: 42 } }',
      'invariants:',
      '  - name: nothing-lost',
      '    request: { url: "http://127.0.0.1:7000/audit" }',
      '    expect: { json: { path: "$.lost.", equals: 0 } }',
      '    gate: false',
      '',
    ].join('\n');
    const { problems } = checkTargetText(text);
    expect(problems.map((p) => [p.path, p.line])).toEqual([
      ['leader.json', 5],
      ['workload.expect.json.path', 9],
      ['invariants[0].expect.json.path', 13],
    ]);
    expect(problems[1]!.message).toMatch(/not a JSON path: .* at character 9 of "\$\.answer\["/);
    expect(problems[1]!.column).toBeGreaterThan(0);
  });

  it('names a missing or unknown kind and the ones it knows', () => {
    expect(checkTargetText('name: x\n').problems[0]!.message).toMatch(/required: one of embedded, process, remote/);
    expect(checkTargetText('kind: k8s\nname: x\n').problems[0]).toMatchObject({ path: 'kind', line: 1, column: 7 });
    expect(checkTargetText('- a\n').problems[0]!.message).toMatch(/a target file is a mapping/);
    expect(checkTargetText('kind: [\n').problems.length).toBeGreaterThan(0);
  });

  it('refuses durations past 24h and malformed ones', () => {
    expect(checkTargetText('kind: remote\nname: x\nurl: "http://h:1"\nlease: 25h\n').problems[0]!.message).toMatch(
      /longer than the 24h limit/,
    );
    expect(checkTargetText('kind: remote\nname: x\nurl: "http://h:1"\ntimeout: -1\n').problems[0]!.message).toMatch(
      /invalid duration/,
    );
  });
});
