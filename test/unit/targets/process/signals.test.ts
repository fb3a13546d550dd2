import { describe, expect, it } from 'vitest';
import { agentTree } from '../../../../src/targets/process/signals.js';
import { matchesWords } from '../../../../src/targets/process/pid.js';
import type { ProcInfo } from '../../../../src/targets/process/proc.js';

const p = (pid: number, ppid: number, pgid: number): ProcInfo => ({ pid, ppid, pgid, state: 'S', startTime: pid });

describe('agentTree', () => {
  // 100 supervisor (leads group 100); 101, 102 workers in the supervisor's group; 103 a child of 101; 200 leads its own group with 201 detached below it
  const table = new Map(
    [p(100, 1, 100), p(101, 100, 100), p(102, 100, 100), p(103, 101, 100), p(200, 100, 200), p(201, 1, 200)].map(
      (i) => [i.pid, i],
    ),
  );

  it("a worker in its supervisor's group: itself and its descendants, never the group", () => {
    expect(agentTree(101, table)).toEqual([101, 103]);
  });

  it('an agent that leads its own group: its descendants and its group members, even re-parented ones', () => {
    expect(agentTree(200, table)).toEqual([200, 201]);
  });

  it('never includes excluded pids', () => {
    expect(agentTree(101, table, new Set([103]))).toEqual([101]);
  });
});

describe('matchesWords', () => {
  it('matches at a word end only', () => {
    expect(matchesWords('node worker.js --id 1', 'worker.js --id 1')).toBe(true);
    expect(matchesWords('node worker.js --id 10', 'worker.js --id 1')).toBe(false);
    expect(matchesWords('node worker.js --id 10 --id 1 x', 'worker.js --id 1')).toBe(false);
    expect(matchesWords('node /srv/worker.js --id 1 --verbose', 'worker.js --id 1')).toBe(true);
  });
});
