/** The sets derived from the per-fault Record tables (action.ts, measure/disruptive.ts) keep their meaning. */
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, SELF_TARGETING } from '../../../src/arena/action.js';
import { DISRUPTIVE_FAULTS, healthScopeFor } from '../../../src/arena/measure/disruptive.js';
import { createAction } from '../../../src/arena/actions.js';

describe('per-fault tables', () => {
  it('the arena finds the target of exactly kill_leader and kill_orchestrator', () => {
    expect([...SELF_TARGETING].sort()).toEqual(['kill_leader', 'kill_orchestrator']);
  });

  it('disruptive faults are those that break something to recover from; pause, resume, slow, tool_timeout and tool_fault are not', () => {
    expect(ACTION_TYPES.filter((t) => !DISRUPTIVE_FAULTS.has(t)).sort()).toEqual([
      'pause_agent',
      'resume_agent',
      'slow_agent',
      'tool_fault',
      'tool_timeout',
    ]);
  });

  it('an agent fault polls the aspect it damaged', () => {
    const scope = (type: (typeof ACTION_TYPES)[number]) =>
      healthScopeFor({ action: createAction(type, 'agent-1'), success: true, duration_ms: 1 });
    expect(scope('kill_agent')).toEqual({ kind: 'agent', id: 'agent-1', aspect: 'process' });
    expect(scope('mcp_disconnect')).toEqual({ kind: 'agent', id: 'agent-1', aspect: 'mcp' });
    expect(scope('network_partition')).toEqual({ kind: 'agent', id: 'agent-1', aspect: 'network' });
    expect(scope('remove_node')).toEqual({ kind: 'dag' });
    expect(scope('slow_agent')).toBeUndefined();
  });
});
