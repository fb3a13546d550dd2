/**
 * The dashboard snapshot carries what the web console needs beyond the
 * agents: the target's clock (so a fault's time left is exact), the faults
 * the target can apply, and the DAG's current nodes and edges.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap, type ArenaRoot } from '../../../src/bootstrap/index.js';
import { ACTION_TYPES } from '../../../src/arena/action.js';

let root: ArenaRoot | undefined;
afterEach(async () => {
  await root?.stop().catch(() => undefined);
  root = undefined;
});

describe('dashboard snapshot', () => {
  it("gives now_ms on the faults' clock, the supported faults and the live DAG", async () => {
    // DAG restore off: the removed edge must still be missing when the snapshot is taken
    root = await bootstrap({ seed: 5, strategy: { dag: { enabled: false } } });
    await root.start();
    await root.executeArenaAction({ type: 'slow_agent', target_id: 'agent-2', metadata: { duration: '30s' } });
    await root.executeArenaAction({ type: 'remove_edge', source_id: 'plan', target_id: 'tool' });
    const snap = await root.dashboard.snapshot();
    // every fault, tool_fault too: the embedded runtime changes its tools' results
    expect(snap.faults).toEqual([...ACTION_TYPES]);
    const fault = snap.active_faults.find((f) => f.kind === 'slow_agent')!;
    const left = fault.ends_at_ms! - snap.now_ms;
    expect(left).toBeGreaterThan(25_000);
    expect(left).toBeLessThanOrEqual(30_000);
    expect(snap.dag.nodes).toEqual(expect.arrayContaining(['fetch', 'plan', 'tool', 'recall', 'answer']));
    expect(snap.dag.edges).not.toContainEqual({ from: 'plan', to: 'tool' });
    expect(snap.dag.edges).toContainEqual({ from: 'fetch', to: 'plan' });
  });
});
