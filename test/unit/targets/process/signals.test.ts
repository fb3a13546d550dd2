import { describe, expect, it } from 'vitest';
import { agentTree } from '../../../../src/targets/process/signals.js';
import { matchesWords } from '../../../../src/targets/process/pid.js';
import type { ProcInfo } from '../../../../src/shared/proc.js';

const p = (pid: number, ppid: number, pgid: number, sid = 1): ProcInfo => ({
  pid,
  ppid,
  pgid,
  sid,
  state: 'S',
  startTime: pid,
});
/** an arena (pid 50, in group 40 and session 30, below 10 and 1) beside the table's processes */
const family = { self: 50, ancestors: new Set([10, 1]), pgid: 40, sid: 30, helpers: new Set<number>() };

describe('agentTree', () => {
  // 100 supervisor (leads group 100); 101, 102 workers in the supervisor's group; 103 a child of 101; 200 leads its own group with 201 detached below it
  const table = new Map(
    [p(100, 1, 100), p(101, 100, 100), p(102, 100, 100), p(103, 101, 100), p(200, 100, 200), p(201, 1, 200)].map(
      (i) => [i.pid, i],
    ),
  );

  it("a worker in its supervisor's group: itself and its descendants, never the group", () => {
    expect(agentTree(101, table, new Set(), family)).toEqual([101, 103]);
  });

  it('an agent that leads its own group: its descendants and its group members, even re-parented ones', () => {
    expect(agentTree(200, table, new Set(), family)).toEqual([200, 201]);
  });

  it('never includes excluded pids', () => {
    expect(agentTree(101, table, new Set([103]), family)).toEqual([101]);
  });

  it("never reaches the arena, anything above it, or a process in the arena's group or session", () => {
    // 300 leads its group; below it: the arena's parent shell 10 (as if re-parented), a process in the
    // arena's group (301), one in its session (302), the arena itself (50), and an ordinary child (303)
    const mixed = new Map(
      [p(300, 1, 300), p(10, 300, 10), p(301, 300, 40), p(302, 300, 302, 30), p(50, 300, 40, 30), p(303, 300, 300)].map(
        (i) => [i.pid, i],
      ),
    );
    expect(agentTree(300, mixed, new Set(), family)).toEqual([300, 303]);
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
