import { describe, expect, it } from 'vitest';
import { checkTargetText } from '../../../src/targets/file.js';

const PROCESS_HEAD = [
  'kind: process',
  'name: x',
  'agents:',
  '  - id: a',
  '    pid: { port: 7000 }',
  '    health: { tcp: "127.0.0.1:7000" }',
];

describe('tasks, side_effects and prices in target files (DESIGN §14)', () => {
  it('accepts them on a process target, with the workload request defaults', () => {
    const { problems, spec } = checkTargetText(
      [
        ...PROCESS_HEAD,
        'tasks:',
        '  - id: sum',
        '    request: { url: "http://127.0.0.1:7000/task?q=17%2B25", timeout: 30s }',
        '    expect: { status: 200, json: { path: "$.answer", equals: 42 } }',
        '    needs: ["add"]',
        'side_effects: ["write_*", "send_email"]',
        'prices: { gpt-4o-mini: { input_per_mtok: 0.15, output_per_mtok: 0.60 } }',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(spec!.tasks).toEqual([
      {
        id: 'sum',
        request: { method: 'GET', url: 'http://127.0.0.1:7000/task?q=17%2B25', timeout: 30000 },
        expect: { status: 200, json: { path: '$.answer', equals: 42 } },
        needs: ['add'],
      },
    ]);
    expect(spec!.side_effects).toEqual(['write_*', 'send_email']);
    expect(spec!.prices).toEqual({ 'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 } });
  });

  it('accepts tasks on a remote target', () => {
    const { problems } = checkTargetText(
      'kind: remote\nname: r\nurl: "http://127.0.0.1:9500"\ntasks:\n  - id: t\n    request: { url: "http://127.0.0.1:9500/x" }\n',
    );
    expect(problems).toEqual([]);
  });

  it('reports unknown keys, malformed JSON paths, duplicate ids and bad prices at their line:column', () => {
    const { problems } = checkTargetText(
      [
        ...PROCESS_HEAD,
        'tasks:',
        '  - id: sum',
        '    request: { url: "http://127.0.0.1:7000/t" }',
        '    expect: { json: { path: "$.a[", equals: 1 } }',
        '    bogus: 1',
        '  - id: sum',
        '    request: { url: "http://127.0.0.1:7000/t" }',
        'side_effects: ["write email"]',
        'prices: { gpt: { input_per_mtok: -1, output_per_mtok: 2, extra: 1 } }',
      ].join('\n'),
    );
    expect(problems.map((p) => [p.path, p.line, p.column])).toEqual([
      ['tasks[0].expect.json.path', 10, 29],
      ['tasks[0].bogus', 11, 5],
      ['tasks[1].id', 12, 9],
      ['side_effects[0]', 14, 16],
      ['prices.gpt.input_per_mtok', 15, 34],
      ['prices.gpt.extra', 15, 58],
    ]);
    expect(problems.find((p) => p.path === 'tasks[1].id')!.message).toContain('duplicate task id sum');
  });
});
