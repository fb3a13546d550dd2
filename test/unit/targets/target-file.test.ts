// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} references in file text are what these tests are about
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

describe('target files: ${NAME} environment references', () => {
  const fleet = (port: string) =>
    [
      'kind: process',
      'name: f',
      'start: { command: "PORT=${BASE:-7000} node w.mjs", ready: { http: "http://127.0.0.1:${BASE:-7000}/h" } }',
      'agents:',
      '  - id: a',
      '    pid:',
      `      port: ${port}`,
      '    proxy: { listen: 7001, upstream: "127.0.0.1:${BASE:-7000 + 101}" }',
      '    health: { http: "http://127.0.0.1:${BASE:-7000 + 101}/h" }',
    ].join('\n');

  it('replaces references before validating; an unquoted reference that becomes a number is a number', () => {
    const { problems, spec } = checkTargetText(fleet('${BASE:-7000 + 101}'), 't.yaml', { BASE: '9000' });
    expect(problems).toEqual([]);
    expect(spec).toMatchObject({
      start: { command: 'PORT=9000 node w.mjs' },
      agents: [
        { pid: { port: 9101 }, proxy: { upstream: '127.0.0.1:9101' }, health: { http: 'http://127.0.0.1:9101/h' } },
      ],
    });
    expect(checkTargetText(fleet('${BASE:-7000 + 101}'), 't.yaml', {}).spec).toMatchObject({
      agents: [{ pid: { port: 7101 } }],
    });
  });

  it('a quoted reference stays a string (so a port written "${…}" is refused as one)', () => {
    const { problems } = checkTargetText(fleet('"${BASE:-7101}"'), 't.yaml', {});
    expect(problems[0]).toMatchObject({ path: 'agents[0].pid.port', line: 7 });
  });

  it('refuses an unset variable without default at its line:column, every one at once, and nothing else is checked', () => {
    const text = fleet('${ARENA_NOT_SET_PORT}').replace('${BASE:-7000 + 101}/h', '${ARENA_OTHER}/h');
    const { problems } = checkTargetText(text, 't.yaml', {});
    expect(problems).toEqual([
      {
        path: 'agents[0].pid.port',
        line: 7,
        column: 13,
        message: 'environment variable ARENA_NOT_SET_PORT is not set (or give a default: ${ARENA_NOT_SET_PORT:-value})',
      },
      {
        path: 'agents[0].health.http',
        line: 9,
        column: 21,
        message: 'environment variable ARENA_OTHER is not set (or give a default: ${ARENA_OTHER:-value})',
      },
    ]);
  });

  it('refuses an offset on a value that is not a whole number, naming the variable', () => {
    const { problems } = checkTargetText(fleet('${BASE:-7000 + 101}'), 't.yaml', { BASE: 'seven' });
    expect(problems[0]!.message).toMatch(/BASE is "seven": "\+ 101" needs a whole number/);
  });
});
