import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../../src/shared/json-syntax.js';
import { checkScenarioText } from '../../../src/arena/scenario/load.js';
import { parseStrategyText } from '../../../src/runtime/strategy.js';
import { checkTargetText } from '../../../src/targets/file.js';
import { checkWorkflowText } from '../../../src/workflow/load.js';

const at = (text: string) => {
  const e = findJsonSyntaxError(text);
  return e && `${e.line}:${e.column} ${e.message}`;
};

describe('JSON syntax errors', () => {
  it('are told as JSON errors at line:column, including those JSON.parse gives no position for', () => {
    expect(at('{"a": 1}')).toBeUndefined();
    expect(at('{"a": }')).toBe("1:7 JSON syntax error: expected a value, found '}'");
    expect(at('{\n  "a": 1,\n  "b" 2\n}')).toBe("3:7 JSON syntax error: expected ':', found '2'");
    expect(at('[1,\n 2,\n]')).toBe("3:1 JSON syntax error: expected a value after the comma, found ']'");
    expect(at('{\n  "a": 1,\n}')).toBe("3:1 JSON syntax error: expected a property after the comma, found '}'");
    expect(at("{'a': 1}")).toBe("1:2 JSON syntax error: expected a property name in double quotes, found '''");
    expect(at('{"a": 1')).toBe("1:8 JSON syntax error: expected ',' or '}', found the end of the file");
    expect(at('{"a": 1} x')).toBe("1:10 JSON syntax error: expected the end of the file, found 'x'");
    expect(at('{"a": "x\ny"}')).toMatch(/^1:9 JSON syntax error: a control character/);
  });

  it('every loader says JSON, not YAML, for a .json file (YAML would accept these)', () => {
    const text = '{\n  "name": "x",\n  "actions": [],\n}\n';
    const scenario = checkScenarioText(text, 'broken.json');
    expect(scenario.errors).toEqual([
      {
        path: '(json)',
        message: "JSON syntax error: expected a property after the comma, found '}'",
        line: 4,
        column: 1,
      },
    ]);
    // the same text in a .yaml file is YAML (flow mappings allow the comma)
    expect(checkScenarioText(text, 'fine.yaml').errors.every((e) => e.path !== '(yaml)')).toBe(true);
    expect(() => parseStrategyText('{"supervisor": }', 'strategy.json')).toThrow(
      /strategy\.json:1:16.*JSON syntax error/,
    );
    expect(checkTargetText('{"kind": "embedded",}', 'target.json').problems[0]?.message).toMatch(/^JSON syntax error/);
    expect(checkWorkflowText('{"steps": [,]}', {}, 'flow.json').errors[0]?.message).toMatch(/^JSON syntax error/);
  });
});
