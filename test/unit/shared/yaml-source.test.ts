import { describe, expect, it } from 'vitest';
import { parseYamlSource, readYamlDocument } from '../../../src/shared/yaml-source.js';
import { checkScenarioText } from '../../../src/arena/scenario/load.js';

const problems = (text: string) =>
  parseYamlSource(text).errors.map((e) => `${e.line ?? '-'}:${e.column ?? '-'} ${e.message}`);

describe('YAML messages a person can act on', () => {
  it('deep nesting is "deeper than 64 levels" with a place, never a stack overflow', () => {
    for (const depth of [65, 300, 5000, 200_000]) {
      const [first, ...rest] = problems(`a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
      expect(first).toMatch(/^1:\d+ nesting is deeper than 64 levels$/);
      expect(rest).toEqual([]);
    }
    // block style too, and 63 levels below the top mapping are fine
    const block = (n: number) => `${Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')} end\n`;
    expect(problems(block(64))).toEqual([]);
    expect(problems(block(70))).toEqual(['65:129 nesting is deeper than 64 levels']);
  });

  it('a second document names the separator, not the library call', () => {
    expect(problems('name: a\n---\nname: b\n')).toEqual([
      '2:1 a second YAML document starts here ("---"): a file holds one document; split it into two files',
    ]);
  });

  it('CR-only line endings are line breaks', () => {
    const doc = readYamlDocument('name: x\ractions:\r  - action: { type: kill_leader }\r');
    expect(doc.ok && doc.value).toEqual({ name: 'x', actions: [{ action: { type: 'kill_leader' } }] });
    const r = checkScenarioText('name: x\ractions:\r  - action: { type: kill_agent }\r');
    expect(r.errors.map((e) => `${e.line}:${e.column} ${e.path}`)).toEqual(['3:13 actions[0].action.target_id']);
  });

  it('an unresolved alias gives its line and column', () => {
    expect(problems('a: 1\nb:\n  - *nope\n')).toEqual(['3:5 alias *nope refers to no anchor &nope before it']);
    expect(problems('a: *later\nb: &later 1\n')).toEqual(['1:4 alias *later refers to no anchor &later before it']);
    const r = checkScenarioText('name: x\nactions:\n  - action: *foo\n');
    expect(r.errors).toEqual([
      { path: '(yaml)', message: 'alias *foo refers to no anchor &foo before it', line: 3, column: 13 },
    ]);
  });

  it('the alias cap refuses expansion, not reuse: one small anchor used 200 times is fine', () => {
    const actions = Array.from({ length: 200 }, (_, i) => `  - { label: k${i}, action: *kill }`).join('\n');
    const text = `name: reuse\nx-defaults: &kill { type: kill_agent, target_id: agent-2 }\nactions:\n${actions}\n`;
    const doc = readYamlDocument(text);
    expect(doc.ok).toBe(true);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    expect(problems(bomb)[0]).toMatch(/^\d+:\d+ aliases expand to more than 100000 nodes/);
  });

  it('a self-containing alias is refused with its place', () => {
    expect(problems('a: &a [1, *a]\n')).toEqual(['1:11 alias *a refers to a node that contains it']);
  });
});
