/**
 * tool_fault on the embedded runtime's toolbox (DESIGN §13.2): the fault
 * changes what the agent gets, and the careful agent (validate on) refuses a
 * changed result where the naive one uses it.
 */
import { describe, expect, it } from 'vitest';
import { createToolbox } from '../../../../src/runtime/tools/index.js';
import { changeResultText, toolResultFault } from '../../../../src/runtime/tools/result-faults.js';
import { ManualClock } from '../../../../src/shared/clock.js';

const fault = (params: Record<string, unknown>) => toolResultFault('fault-1', params, 7);

describe('tool_fault on the toolbox', () => {
  it('the naive agent uses whatever comes back: cut, empty, corrupted, injected', async () => {
    const changes: unknown[] = [];
    const tools = createToolbox({ clock: new ManualClock(), validate: false, onChanged: (c) => changes.push(c) });
    tools.setResultFault(fault({ mode: 'truncate', keep: 0.5 }));
    expect(await tools.call('lookup', { key: 'japan' })).toBe('"To');
    tools.setResultFault(fault({ mode: 'empty' }));
    expect(await tools.call('lookup', { key: 'japan' })).toBe('');
    tools.setResultFault(fault({ mode: 'corrupt' }));
    expect(await tools.call('lookup', { key: 'japan' })).toMatch(/^Tokyo~[0-9a-f]{6}$/);
    tools.setResultFault(fault({ mode: 'inject' }));
    const injected = String(await tools.call('lookup', { key: 'japan' }));
    expect(injected).toContain('ARENA-CANARY-fault-1');
    expect(injected.startsWith('"Tokyo"')).toBe(true);
    expect(tools.resultStats()).toMatchObject({ changed: 4, used: 4, rejected: 0 });
    expect(changes.at(-1)).toEqual({ fault_id: 'fault-1', tool: 'lookup', marker: 'ARENA-CANARY-fault-1' });
    // cleared: the real result again
    tools.setResultFault(undefined);
    expect(await tools.call('lookup', { key: 'japan' })).toBe('Tokyo');
  });

  it('the careful agent retries and then refuses a result that breaks the tool promise, never returning it', async () => {
    const tools = createToolbox({ clock: new ManualClock(), retries: 2 });
    for (const mode of ['truncate', 'empty', 'corrupt', 'inject']) {
      tools.setResultFault(fault({ mode }));
      await expect(tools.call('lookup', { key: 'japan' }), mode).rejects.toMatchObject({ code: 'tool_result_invalid' });
    }
    // each refused call was tried three times
    expect(tools.resultStats()).toMatchObject({ changed: 12, rejected: 12, used: 0 });
    expect(tools.stats()).toMatchObject({ retries: 8, failed: 4 });
  });

  it('the glob picks the tools it acts on', async () => {
    const tools = createToolbox({ clock: new ManualClock(), validate: false });
    tools.setResultFault(fault({ mode: 'empty', tool: 'look*' }));
    expect(await tools.call('compute', { expression: '6 * 7' })).toBe(42);
    expect(await tools.call('lookup', { key: 'peru' })).toBe('');
  });

  it('schema_drift hides a tool and renames an input field; the careful agent sends the new name', async () => {
    const naive = createToolbox({ clock: new ManualClock(), validate: false });
    const careful = createToolbox({ clock: new ManualClock() });
    const drift = fault({ mode: 'schema_drift', hide: ['format'], rename: { lookup: { key: 'country' } } });
    naive.setResultFault(drift);
    careful.setResultFault(drift);
    expect(naive.list().map((t) => t.name)).toEqual(['compute', 'lookup', 'sleep']);
    await expect(naive.call('format', { template: 'x' })).rejects.toMatchObject({ code: 'unknown_tool' });
    await expect(naive.call('lookup', { key: 'peru' })).rejects.toThrow(/argument "country" is required/);
    expect(await careful.call('lookup', { key: 'peru' })).toBe('Lima');
    expect(careful.resultStats().relisted).toBe(1);
  });

  it('duplicate_call runs the tool twice and answers once', async () => {
    let runs = 0;
    const tools = createToolbox({
      clock: new ManualClock(),
      tools: [{ name: 'count', description: 'counts', run: () => ++runs }],
    });
    tools.setResultFault(fault({ mode: 'duplicate_call' }));
    expect(await tools.call('count')).toBe(1);
    expect(runs).toBe(2);
    expect(tools.resultStats().duplicated).toBe(1);
  });

  it('the same seed changes the same bytes; another seed another signature', () => {
    const a = changeResultText(fault({ mode: 'corrupt' }), '{"city":"Lima","pop":9}', 3);
    const b = changeResultText(fault({ mode: 'corrupt' }), '{"city":"Lima","pop":9}', 3);
    const c = changeResultText(toolResultFault('fault-1', { mode: 'corrupt' }, 8), '{"city":"Lima","pop":9}', 3);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});
