import { describe, expect, it } from 'vitest';
import { renderDescription } from '../../../src/cli/commands/describe.js';

// what a process target's describe() gives: the faults it cannot apply also sit in its details
const processTarget = {
  name: 'example-fleet',
  kind: 'process' as const,
  agents: [{ id: 'worker-1', role: 'worker' as const, status: 'running' as const, restarts: 0 }],
  dag: { nodes: [], edges: [] },
  strategy: {
    leader: 'GET http://127.0.0.1:7000/leader $.leader_id',
    workload: { rate_per_s: 20, request: 'POST http://127.0.0.1:7000/task' },
    invariants: ['no-lost-jobs'],
    hooks: null,
    unsupported_faults: { memory_corrupt: 'target example-fleet has no memory_corrupt hook' },
  },
  unsupported_faults: { memory_corrupt: 'target example-fleet has no memory_corrupt hook' },
};

describe('arena describe --target, as a table', () => {
  it('prints the target details as a table, no raw JSON, and each unsupported fault once', () => {
    const text = renderDescription(processTarget, 'fleet.yaml');
    expect(text.split('has no memory_corrupt hook').length - 1).toBe(1);
    expect(text).not.toMatch(/[{}"]/);
    expect(text).toMatch(/│ workload\s+│ rate_per_s 20, request POST http:\/\/127\.0\.0\.1:7000\/task\s+│/);
    expect(text).toMatch(/│ invariants\s+│ no-lost-jobs\s+│/);
    expect(text).toMatch(/│ hooks\s+│ -\s+│/);
    expect(text).toMatch(/│ setting\s+│ value\s+│/);
  });
});
