/**
 * Survival's default mix takes in tool_fault where the target can apply it and leaves it out, with the
 * target's reason, where it cannot: from the command line, over HTTP and in a dry run alike. Asked
 * for by name on a target that cannot apply it, it is refused before anything runs.
 */
import { describe, expect, it } from 'vitest';
import type { ActionType } from '../../../../src/arena/action.js';
import { dryRunOnTarget } from '../../../../src/arena/dry-run/on-target.js';
import type { Target } from '../../../../src/arena/providers.js';
import { runSurvivalOnTarget, survivalKinds } from '../../../../src/arena/survival/on-target.js';
import { DEFAULT_SURVIVAL_ACTIONS, planAction, type TargetView } from '../../../../src/arena/survival/plan.js';
import { createRandom } from '../../../../src/shared/random.js';
import { resolveSurvivalConfig, type SurvivalOptions } from '../../../../src/arena/survival/run.js';
import type { ArenaService } from '../../../../src/arena/service.js';
import { createSurvivalPort } from '../../../../src/bootstrap/survival.js';
import { createEmbeddedTarget } from '../../../../src/targets/embedded/target.js';
import { agentUnsupported, unsupportedFaults } from '../../../../src/targets/process/unsupported.js';
import type { ProcessTargetSpec } from '../../../../src/targets/process/spec.js';
import { UsageError } from '../../../../src/shared/errors.js';
import { createFakeTarget } from '../../../helpers/fake-target.js';

const NO_MCP = 'target fleet has no mcp: proxy (add mcp: { listen, upstream })';
/** a target whose only gap is tool_fault (a process target without an mcp: proxy says this) */
const withoutTools = {
  name: 'fleet',
  kind: 'process',
  unsupportedFaults: () => ({ tool_fault: NO_MCP }),
} as unknown as Target;
const kindsOn = (target: Target, options: SurvivalOptions) =>
  survivalKinds(target, options, resolveSurvivalConfig(options));

describe("survival's mix and tool_fault", () => {
  it('the default mix has tool_fault; a target that applies it keeps it, one that cannot says why', async () => {
    expect(DEFAULT_SURVIVAL_ACTIONS).toContain('tool_fault');
    const embedded = await createEmbeddedTarget();
    expect(kindsOn(embedded, { duration: '1s', interval: '1s' })).toEqual({
      kinds: [...DEFAULT_SURVIVAL_ACTIONS],
      leftOut: [],
    });
    const chosen = kindsOn(withoutTools, { duration: '1s', interval: '1s' });
    expect(chosen.kinds).toEqual(DEFAULT_SURVIVAL_ACTIONS.filter((k) => k !== 'tool_fault'));
    expect(chosen.leftOut).toEqual([{ type: 'tool_fault', reason: NO_MCP }]);
    expect(() => kindsOn(withoutTools, { duration: '1s', interval: '1s', actions: 'kill_agent,tool_fault' })).toThrow(
      UsageError,
    );
    expect(() => kindsOn(withoutTools, { duration: '1s', interval: '1s', actions: 'tool_fault' })).toThrow(NO_MCP);
  });

  it('a process target applies tool_fault exactly when one of its agents has an mcp: proxy', () => {
    const spec = (withMcp: boolean) =>
      ({
        name: 'fleet',
        agents: [{ id: 'a', ...(withMcp ? { mcp: { listen: 0, upstream: 'http://127.0.0.1:1' } } : {}) }],
      }) as unknown as ProcessTargetSpec;
    const all = { tcp: true, llm: true, mcp: true };
    expect(unsupportedFaults(spec(false), all).tool_fault).toBe(NO_MCP);
    expect(unsupportedFaults(spec(true), all).tool_fault).toBeUndefined();
  });

  it('over HTTP the same: the default mix leaves it out and the report is told why; asked for, a 400', async () => {
    const runs: SurvivalOptions[] = [];
    const service = {
      getSurvivalStatus: () => ({ running: false }),
      runSurvival: async (options: SurvivalOptions) => void runs.push(options),
    } as unknown as ArenaService;
    const target = { ...withoutTools, describe: async () => ({ strategy: {} }) } as unknown as Target;
    const port = createSurvivalPort(service, target);
    await port.start({ duration: '1s', interval: '1s', seed: 1 });
    await port.settled();
    expect(runs[0]!.actions).toEqual(DEFAULT_SURVIVAL_ACTIONS.filter((k) => k !== 'tool_fault'));
    expect(runs[0]!.kindsLeftOut).toEqual([{ type: 'tool_fault', reason: NO_MCP }]);
    await expect(port.start({ duration: '1s', interval: '1s', actions: ['tool_fault'] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(NO_MCP),
    });
    expect(runs).toHaveLength(1);
  });

  it('a dry run names what the mix leaves out and why, and plans none of it', async () => {
    const plan = await dryRunOnTarget(createFakeTarget(), {
      kind: 'survival',
      options: { duration: '20s', interval: '200ms', seed: 7 },
    });
    expect(plan.action_kinds_left_out).toEqual([{ type: 'tool_fault', reason: 'the fake target has no tools' }]);
    expect(plan.timeline.length).toBeGreaterThan(50);
    expect(plan.timeline.map((f) => f.type)).not.toContain('tool_fault');
    expect(plan.problems).toEqual([]);
  });

  it('a fault is aimed at the agents that can take it, with the same draws per tick', () => {
    const agents = ['agent-1', 'agent-2', 'agent-3'].map((id) => ({
      id,
      role: 'worker' as const,
      status: 'running' as const,
      restarts: 0,
    }));
    const base: TargetView = { agents, available: agents.map((a) => a.id), nodes: [], edges: [] };
    const onlyTwo: TargetView = {
      ...base,
      refuses: (id, type) => (type === 'tool_fault' && id !== 'agent-2' ? `agent ${id} has no mcp: proxy` : undefined),
    };
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const ctx = (kinds: readonly ActionType[]) => ({
        random: createRandom(seed),
        kinds,
        intervalMs: 1000,
        now: () => new Date(0),
        index: 0,
      });
      const aimed = ctx(['tool_fault']);
      expect(planAction(onlyTwo, aimed).target_id).toBe('agent-2');
      // the tick drew as many numbers as without the refusal: later ticks are not shifted
      const plain = ctx(['tool_fault']);
      planAction(base, plain);
      expect(aimed.random.next()).toBe(plain.random.next());
      // a kind every agent takes is aimed as before
      seen.add(planAction(onlyTwo, ctx(['kill_agent'])).target_id);
      // none can: aimed anyway, and the tick's failure says why
      const none = { ...base, refuses: () => 'no' };
      expect(agents.map((a) => a.id)).toContain(planAction(none, ctx(['tool_fault'])).target_id);
    }
    expect(seen.size).toBe(3);
  });

  it('a process agent takes tool_fault through its own mcp: proxy or the shared one', () => {
    const spec = (shared: boolean) =>
      ({
        name: 'fleet',
        ...(shared ? { mcp: { listen: 0, upstream: 'http://127.0.0.1:1' } } : {}),
        agents: [{ id: 'a', mcp: { listen: 0, upstream: 'http://127.0.0.1:1' } }, { id: 'b' }],
      }) as unknown as ProcessTargetSpec;
    expect(agentUnsupported(spec(false), 'a', 'tool_fault')).toBeUndefined();
    expect(agentUnsupported(spec(false), 'b', 'tool_fault')).toBe('agent b has no mcp: proxy');
    expect(agentUnsupported(spec(true), 'b', 'tool_fault')).toBeUndefined();
    expect(agentUnsupported(spec(false), 'b', 'kill_agent')).toBeUndefined();
  });

  it('a dry run aims each fault at an agent that can take it', async () => {
    const target = {
      ...createFakeTarget(),
      agentRefuses: (id: string, type: string) =>
        type === 'slow_agent' && id !== 'agent-3' ? `agent ${id} has no proxy` : undefined,
    } as Target;
    const plan = await dryRunOnTarget(target, {
      kind: 'survival',
      options: { duration: '20s', interval: '200ms', seed: 7, actions: 'slow_agent,kill_agent' },
    });
    const slow = plan.timeline.filter((f) => f.type === 'slow_agent');
    expect(slow.length).toBeGreaterThan(10);
    for (const f of slow) expect(f.target).toBe('agent-3');
    expect(new Set(plan.timeline.filter((f) => f.type === 'kill_agent').map((f) => f.target)).size).toBeGreaterThan(1);
  });

  it('a real run aims each fault at an agent that can take it', async () => {
    const target = createFakeTarget();
    target.agentRefuses = (id, type) => (type === 'slow_agent' && id !== 'agent-3' ? `agent ${id} no` : undefined);
    const report = await runSurvivalOnTarget(target, {
      duration: '300ms',
      interval: '50ms',
      cooldown: '20ms',
      seed: 5,
      actions: ['slow_agent'],
      pollIntervalMs: 5,
      recoveryDeadlineMs: 300,
    });
    // a slowed agent keeps running, so agent-3 can be aimed at on every tick
    expect(report.timeline.length).toBeGreaterThan(3);
    for (const t of report.timeline) expect(t.action.target_id).toBe('agent-3');
    expect(report.action_kinds_left_out).toBeUndefined();
  });
});
