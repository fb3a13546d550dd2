import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { createFaultRegistry, type RevertReason } from '../../../src/protocol/fault-registry.js';
import { parseFaultRequest, ProtocolError } from '../../../src/protocol/wire.js';

function setup() {
  const clock = new ManualClock();
  const applied: string[] = [];
  const reverted: Array<[string, RevertReason]> = [];
  const registry = createFaultRegistry({
    clock,
    apply: async (req) => {
      if (req.target_id === 'ghost') throw new ProtocolError(404, 'not_found', 'no agent ghost');
      applied.push(req.id);
      if (req.type === 'kill_agent') return { report: { killed: req.target_id } };
      return { report: { on: req.target_id }, revert: () => void 0 };
    },
    onRevert: (fault, reason) => reverted.push([fault.id, reason]),
  });
  return { clock, registry, applied, reverted };
}

const fault = (over: Record<string, unknown>) =>
  parseFaultRequest({ id: 'f1', type: 'pause_agent', target_id: 'a', lease_ms: 1000, ...over });

describe('fault registry', () => {
  it('applies an id once and answers a repeat with 200 and the same body', async () => {
    const { registry, applied } = setup();
    const first = await registry.add(fault({}));
    const again = await registry.add(fault({}));
    expect(first.status).toBe(201);
    expect(again).toEqual({ status: 200, body: first.body });
    expect(applied).toEqual(['f1']);
    expect(registry.list().map((f) => f.id)).toEqual(['f1']);
  });

  it('reverts when the lease runs out unless renewed', async () => {
    const { registry, clock, reverted } = setup();
    await registry.add(fault({ lease_ms: 1000 }));
    await clock.advance(900);
    expect(registry.renew(['f1', 'nope'], 1000)).toEqual(['f1']);
    await clock.advance(900);
    expect(reverted).toEqual([]);
    await clock.advance(200);
    expect(reverted).toEqual([['f1', 'lease']]);
    expect(registry.list()).toEqual([]);
  });

  it('reverts at the end of its duration, before the lease', async () => {
    const { registry, clock, reverted } = setup();
    await registry.add(fault({ duration_ms: 300, lease_ms: 5000 }));
    await clock.advance(299);
    expect(reverted).toEqual([]);
    await clock.advance(1);
    expect(reverted).toEqual([['f1', 'duration']]);
  });

  it('DELETE reverts once; a second DELETE or an unknown id reports false', async () => {
    const { registry, reverted } = setup();
    await registry.add(fault({}));
    expect(await registry.remove('f1')).toBe(true);
    expect(await registry.remove('f1')).toBe(false);
    expect(await registry.remove('other')).toBe(false);
    expect(reverted).toEqual([['f1', 'delete']]);
  });

  it('an instant fault is answered but never listed as active', async () => {
    const { registry } = setup();
    const r = await registry.add(fault({ type: 'kill_agent' }));
    expect(r.body.report).toEqual({ killed: 'a' });
    expect(registry.list()).toEqual([]);
  });

  it('a failed apply is not remembered: the same id may be tried again', async () => {
    const { registry, applied } = setup();
    await expect(registry.add(fault({ target_id: 'ghost' }))).rejects.toMatchObject({ status: 404 });
    await registry.add(fault({}));
    expect(applied).toEqual(['f1']);
  });

  it('refuses unknown keys, wrong types and absurd durations naming the field', () => {
    expect(() => parseFaultRequest({ id: 'x', type: 't', lease_ms: 1, extra: 1 })).toThrow(/extra: unknown field/);
    expect(() => parseFaultRequest({ id: 'x', type: 't', duration_ms: 1e12 })).toThrow(/duration_ms/);
    expect(() => parseFaultRequest({ id: 'x', type: 't', params: [] })).toThrow(/params/);
    expect(() => parseFaultRequest(null)).toThrow(/body/);
  });
});
