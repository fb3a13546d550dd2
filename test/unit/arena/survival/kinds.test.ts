/**
 * Survival's default mix takes in tool_fault where the target can apply it and leaves it out, with the
 * target's reason, where it cannot: from the command line, over HTTP and in a dry run alike. Asked
 * for by name on a target that cannot apply it, it is refused before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { dryRunOnTarget } from '../../../../src/arena/dry-run/on-target.js';
import type { Target } from '../../../../src/arena/providers.js';
import { survivalKinds } from '../../../../src/arena/survival/on-target.js';
import { DEFAULT_SURVIVAL_ACTIONS } from '../../../../src/arena/survival/plan.js';
import { resolveSurvivalConfig, type SurvivalOptions } from '../../../../src/arena/survival/run.js';
import type { ArenaService } from '../../../../src/arena/service.js';
import { createSurvivalPort } from '../../../../src/bootstrap/survival.js';
import { createEmbeddedTarget } from '../../../../src/targets/embedded/target.js';
import { unsupportedFaults } from '../../../../src/targets/process/unsupported.js';
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
});
