import { describe, expect, it } from 'vitest';
import { actionProblems, createAction, newActionId, parseAction } from '../../../src/arena/actions.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('createAction / parseAction', () => {
  it('creates an action with id and timestamp', () => {
    const a = createAction('kill_agent', 'agent-1');
    expect(a).toMatchObject({ type: 'kill_agent', target_id: 'agent-1' });
    expect(a.id).toMatch(/[0-9a-f-]{36}/);
    expect(Date.parse(a.created_at)).not.toBeNaN();
  });

  it('parses a valid action and fills in id and created_at', () => {
    const a = parseAction({ type: 'slow_agent', target_id: 'agent-2', metadata: { duration: '2s', delay: 300 } });
    expect(a.metadata).toEqual({ duration: '2s', delay: 300 });
    expect(a.id).toBeTruthy();
    expect(parseAction('{"type":"kill_leader"}').type).toBe('kill_leader');
  });

  it.each([
    [{ type: 'kill_agent' }, 'action.target_id', 'missing target'],
    [{ type: 'explode', target_id: 'x' }, 'action.type', 'unknown action type'],
    [
      { type: 'slow_agent', target_id: 'a', metadata: { duration: 'soon' } },
      'action.metadata.duration',
      'invalid duration',
    ],
    [{ type: 'slow_agent', target_id: 'a', metadata: { duration: -5 } }, 'action.metadata.duration', 'negative'],
    [
      { type: 'llm_failure', target_id: 'a', metadata: { error_type: 'meltdown' } },
      'action.metadata.error_type',
      'unknown error type',
    ],
    // one vocabulary with the LLM proxy (DESIGN §13.1): a parameter another error type takes is refused here too
    [
      { type: 'llm_failure', target_id: 'a', metadata: { error_type: 'rate_limit', keep: 0.5 } },
      'action.metadata.keep',
      'only truncate takes it, not rate_limit',
    ],
    [
      { type: 'llm_failure', target_id: 'a', metadata: { error_type: 'truncate', first_n: 0 } },
      'action.metadata.first_n',
      'expected a whole number from 1',
    ],
    [{ type: 'llm_failure', target_id: 'a', metadata: { duration: 'soon' } }, 'action.metadata.duration', 'invalid'],
    [{ type: 'remove_edge', target_id: 'plan' }, 'action.source_id', 'source_id'],
    [{ type: 'kill_agent', target_id: 'a', colour: 'red' }, 'action.colour', 'unknown key'],
    [
      { type: 'kill_agent', target_id: 'a', metadata: { duration: '1s' } },
      'action.metadata.duration',
      'unknown parameter',
    ],
  ])('rejects %j at %s', (input, path, message) => {
    const problems = actionProblems(input);
    expect(problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ path, message: expect.stringContaining(message) })]),
    );
    expect(() => parseAction(input)).toThrow(UsageError);
  });

  it("accepts every parameter the LLM proxy takes for llm_failure, with the proxy's names", () => {
    const metadata = {
      error_type: 'truncate',
      keep: 0.25,
      first_n: 2,
      probability: 0.5,
      match: { model: 'gpt-*' },
      duration: '3s',
    };
    expect(actionProblems({ type: 'llm_failure', target_id: 'a', metadata })).toEqual([]);
    expect(
      actionProblems({ type: 'llm_failure', target_id: 'a', metadata: { error_type: 'model_swap', to_model: 'x' } }),
    ).toEqual([]);
  });

  it('tool_fault takes its mode and the parameters of that mode (DESIGN §13.2)', () => {
    expect(
      actionProblems({
        type: 'tool_fault',
        target_id: 'a',
        metadata: { mode: 'inject', tool: 'search*', duration: '2s' },
      }),
    ).toEqual([]);
    expect(actionProblems({ type: 'tool_fault', target_id: 'a', metadata: { mode: 'explode' } })).toEqual([
      {
        path: 'action.metadata.mode',
        message: 'expected one of truncate, empty, corrupt, inject, schema_drift, duplicate_call',
      },
    ]);
    expect(actionProblems({ type: 'tool_fault', target_id: 'a', metadata: { mode: 'empty', keep: 0.5 } })).toEqual([
      { path: 'action.metadata.keep', message: 'only truncate takes it, not empty' },
    ]);
  });

  it('reports every problem at once', () => {
    const problems = actionProblems({ type: 'remove_edge', metadata: 3, extra: 1 });
    expect(problems.map((p) => p.path).sort()).toEqual([
      'action.extra',
      'action.metadata',
      'action.source_id',
      'action.target_id',
    ]);
  });

  it('rejects non-JSON text and non-objects', () => {
    expect(() => parseAction('{nope')).toThrow(/invalid action JSON/);
    expect(() => parseAction([1])).toThrow(UsageError);
  });
});

describe('newActionId', () => {
  const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('gives version 4 UUIDs (RFC 9562), all distinct, across many draws of randomness', () => {
    const ids = Array.from({ length: 5000 }, () => newActionId()); // about 20 draws of 256
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
    expect(createAction('kill_agent', 'agent-1').id).toMatch(V4);
  });

  it('every random digit takes many values: the bytes are used, not a pattern', () => {
    const ids = Array.from({ length: 2000 }, () => newActionId().replaceAll('-', ''));
    for (let pos = 0; pos < 32; pos++) {
      if (pos === 12) continue; // the version digit
      const seen = new Set(ids.map((id) => id[pos]));
      expect(seen.size, `hex digit ${pos}`).toBe(pos === 16 ? 4 : 16); // the variant digit is 8, 9, a or b
    }
  });

  it('an id is a string of its own: the next id does not change it', () => {
    const first = newActionId();
    const copy = `${first}`;
    for (let i = 0; i < 300; i++) newActionId();
    expect(first).toBe(copy);
  });
});
