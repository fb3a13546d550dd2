/**
 * Every scenario shipped in scenarios/ validates, together they use every
 * fault kind the embedded target applies, and each one runs against the embedded target (timings scaled
 * down) with its expectations met and its faults reverted.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenarioFile, loadScenarioFile, runScenarioOnTarget } from '../../../../src/arena/scenario/index.js';
import { ACTION_TYPES } from '../../../../src/arena/action.js';
import { createEmbeddedTarget } from '../../../../src/targets/embedded/index.js';

const DIR = fileURLToPath(new URL('../../../../scenarios/', import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('shipped scenarios', () => {
  it('are at least six and all valid', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(6);
    expect(FILES).toContain('leader-failover.yaml');
    for (const f of FILES) {
      const r = await checkScenarioFile(join(DIR, f));
      expect(r.errors, f).toEqual([]);
    }
  });

  it('together use every fault kind the embedded target applies', async () => {
    const used = new Set<string>();
    for (const f of FILES) for (const a of (await loadScenarioFile(join(DIR, f))).actions) used.add(a.action.type);
    expect([...used].sort()).toEqual([...ACTION_TYPES].sort());
  });

  // each run has its own embedded target and mostly waits on the scenario's (scaled) delays: they run side by side
  it.concurrent.for(FILES)('%s runs against the embedded target', { timeout: 15_000 }, async (file, { expect }) => {
    const scenario = await loadScenarioFile(join(DIR, file));
    const target = createEmbeddedTarget({ workloadRate: 50 });
    // the gate (expect.min_score) is checked at full speed by `npm start`; here, on a
    // loaded CI machine with timings scaled, we check expectations and a clearly working score
    const report = await runScenarioOnTarget(target, scenario, {
      timeScale: 0.3,
      recoveryDeadlineMs: 3000,
      minScore: 0,
    });
    const summary = report.results
      .map((r) => `${r.label}: ${r.result.success ? 'ok' : r.result.error} (met ${r.met})`)
      .join('\n');
    expect(report.status, `${file}\n${summary}\nscore ${JSON.stringify(report.score, null, 1)}`).toBe('passed');
    expect(report.verified).toBe(true);
    expect(report.score.score).toBeGreaterThan(50);
    expect(report.score.measurements.requests.total).toBeGreaterThan(0);
    expect(await target.runtime.activeFaults()).toEqual([]);
  });
});
