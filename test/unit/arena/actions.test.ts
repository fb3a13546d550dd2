import { describe, expect, it } from 'vitest';
import { actionProblems, createAction, parseAction } from '../../../src/arena/actions.js';
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
    [{ type: 'slow_agent', target_id: 'a', metadata: { duration: 'soon' } }, 'action.metadata.duration', 'invalid duration'],
    [{ type: 'slow_agent', target_id: 'a', metadata: { duration: -5 } }, 'action.metadata.duration', 'negative'],
    [{ type: 'llm_failure', target_id: 'a', metadata: { error_type: 'meltdown' } }, 'action.metadata.error_type', 'unknown error_type'],
    [{ type: 'remove_edge', target_id: 'plan' }, 'action.source_id', 'source_id'],
    [{ type: 'kill_agent', target_id: 'a', colour: 'red' }, 'action.colour', 'unknown key'],
    [{ type: 'kill_agent', target_id: 'a', metadata: { duration: '1s' } }, 'action.metadata.duration', 'unknown parameter'],
  ])('rejects %j at %s', (input, path, message) => {
    const problems = actionProblems(input);
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.stringContaining(message) })]));
    expect(() => parseAction(input)).toThrow(UsageError);
  });

  it('reports every problem at once', () => {
    const problems = actionProblems({ type: 'remove_edge', metadata: 3, extra: 1 });
    expect(problems.map((p) => p.path).sort()).toEqual(['action.extra', 'action.metadata', 'action.source_id', 'action.target_id']);
  });

  it('rejects non-JSON text and non-objects', () => {
    expect(() => parseAction('{nope')).toThrow(/invalid action JSON/);
    expect(() => parseAction([1])).toThrow(UsageError);
  });
});
