/**
 * The published target-file JSON Schema is generated from the zod schemas that validate target
 * files (one source), stays identical to schemas/target.schema.json, and a third-party validator
 * (ajv) accepts every shipped target file and refuses a broken one, as the arena does.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { targetJsonSchema } from '../../../src/targets/schema.js';
import { checkTargetText } from '../../../src/targets/file.js';

const SHIPPED = [
  'examples/fleet/target.yaml',
  'examples/fleet/target-no-restart.yaml',
  'examples/llm-agent/target.yaml',
];
const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('target file JSON Schema', () => {
  it('schemas/target.schema.json is what `arena schema target` generates', () => {
    expect(JSON.parse(read('schemas/target.schema.json'))).toEqual(targetJsonSchema());
  });

  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(targetJsonSchema());

  it.each(SHIPPED)('ajv accepts the shipped %s, as the arena does', (path) => {
    const text = read(path);
    expect(checkTargetText(text).problems).toEqual([]);
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('ajv and the arena both refuse an unknown key and a wrong type', () => {
    for (const text of [
      'kind: remote\nname: x\nurl: "http://127.0.0.1:1"\nleash: 2s\n',
      'kind: remote\nname: x\nurl: 5\n',
      'kind: nope\nname: x\n',
    ]) {
      expect(checkTargetText(text).problems.length).toBeGreaterThan(0);
      expect(validate(parse(text))).toBe(false);
    }
  });
});
