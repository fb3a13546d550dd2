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
