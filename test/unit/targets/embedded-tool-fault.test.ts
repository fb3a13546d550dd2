/**
 * tool_fault on the embedded target (DESIGN §13.2, §13.3): the shipped
 * poisoned-tools scenario against careful agents (the default strategy) and
 * naive ones (strategies/naive-tools.yaml). The report's markers say how far
 * the changed values went: the naive agents carry the canary and the corrupt
 * signatures into their prompts and to the user, the careful ones nowhere.
 */
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { loadScenarioFile, runScenarioOnTarget } from '../../../src/arena/scenario/index.js';
import { loadStrategyFile } from '../../../src/runtime/strategy.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';

const path = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

async function run(strategy?: string) {
  const scenario = await loadScenarioFile(path('scenarios/poisoned-tools.yaml'));
  const target = createEmbeddedTarget({
    workloadRate: 50,
    ...(strategy ? { strategy: await loadStrategyFile(path(strategy)) } : {}),
  });
  return runScenarioOnTarget(target, scenario, { timeScale: 0.5, minScore: 0 });
}

describe('tool_fault on the embedded target', () => {
  it.concurrent('careful agents refuse the changed results: no marker goes anywhere', async ({ expect }) => {
    const report = await run();
    expect(report.results.every((r) => r.result.success)).toBe(true);
    const markers = report.markers ?? [];
    expect(markers.map((m) => m.kind).sort()).toEqual(['canary', 'signature']);
    for (const m of markers) expect(m).toMatchObject({ source: 'tools', entered_context: 0, reached_user: 0 });
  });

  it.concurrent('naive agents answer with them: the canary and the signatures reach the user', async ({ expect }) => {
    const report = await run('strategies/naive-tools.yaml');
    const byKind = Object.fromEntries((report.markers ?? []).map((m) => [m.kind, m]));
    expect(byKind.canary?.entered_context).toBeGreaterThan(0);
    expect(byKind.canary?.reached_user).toBeGreaterThan(0);
    expect(byKind.signature?.reached_user).toBeGreaterThan(0);
  });
});
