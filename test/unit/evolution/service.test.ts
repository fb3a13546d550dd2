import { describe, expect, it } from 'vitest';
import { EvolutionService, parseRunRequest } from '../../../src/evolution/service.js';
import { createRuntimeEvolution } from '../../../src/evolution/bridge.js';
import { createRuntime } from '../../../src/runtime/runtime.js';
import { RECOVERY_OFF_STRATEGY, type Strategy } from '../../../src/runtime/strategy.js';
import { ConflictError, NotFoundError, UsageError } from '../../../src/shared/errors.js';

const synthetic = () => (s: Strategy) =>
  [s.supervisor, s.election, s.failover, s.checkpoints, s.integrity, s.dag].filter((m) => m.enabled).length * 10;

describe('EvolutionService', () => {
  it('runs a search in the background, lists it, and applies the best strategy to the runtime', async () => {
    const runtime = createRuntime({ strategy: RECOVERY_OFF_STRATEGY });
    const evolution = createRuntimeEvolution(runtime);
    const service = new EvolutionService({ fitness: synthetic, runtime, coordinator: evolution.coordinator });
    const run = service.startRun({
      generations: 4,
      population: 6,
      seed: 3,
      initial: RECOVERY_OFF_STRATEGY,
      apply: true,
    });
    expect(run.status).toBe('running');
    expect(() => service.startRun({})).toThrow(ConflictError);
    await service.wait();
    const done = service.run(run.id);
    expect(done.status).toBe('completed');
    expect(done.generations).toHaveLength(4);
    expect(done.best!.fitness).toBeGreaterThan(done.initial_fitness!);
    expect(done.applied).toBe(true);
    expect(runtime.strategy()).toEqual(done.best!.strategy);
    expect(service.runs()).toHaveLength(1);
    const status = await service.status();
    expect(status).toMatchObject({ running: null, runs: 1, best: { run_id: run.id } });
    expect(status.runtime).toBeDefined();
    expect(() => service.run('nope')).toThrow(NotFoundError);
  });

  it('validates run requests, naming every problem', () => {
    expect(parseRunRequest({})).toMatchObject({
      generations: 5,
      population: 6,
      seed: 1,
      duration_ms: 1000,
      interval_ms: 150,
    });
    expect(parseRunRequest({ duration: '300ms', interval: 50 })).toMatchObject({ duration_ms: 300, interval_ms: 50 });
    try {
      parseRunRequest({ generations: 0, population: 'x', colour: 1, initial: { election: { lease_ms: 'soon' } } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      const msg = (err as Error).message;
      expect(msg).toMatch(/generations/);
      expect(msg).toMatch(/population/);
      expect(msg).toMatch(/colour: unknown field/);
      expect(msg).toMatch(/election.lease_ms/);
    }
    expect(() => new EvolutionService({ fitness: () => async () => 0 }).startRun({ apply: true })).toThrow(
      /no running runtime/,
    );
  });
});

describe('RuntimeEvolutionService', () => {
  it('lets an operator propose a patch, decided by the policy or applied at once when urgent', async () => {
    const { RuntimeEvolutionService } = await import('../../../src/evolution/runtime-service.js');
    const runtime = createRuntime();
    const evolution = createRuntimeEvolution(runtime, { policy: { maxApplied: 1, windowMs: 60_000 } });
    const service = new RuntimeEvolutionService(evolution.coordinator);
    const first = await service.startRun({ patch: { tools: { timeout_ms: '80ms' } }, reason: 'tools hang' });
    expect(first).toMatchObject({
      decision: 'applied',
      emergency: false,
      proposal: { action_type: 'manual', reason: 'tools hang' },
    });
    expect(runtime.strategy().tools.timeout_ms).toBe(80);
    const second = await service.startRun({ patch: { mcp: { backoff_ms: 10 } } });
    expect(second.decision).toBe('delayed');
    const urgent = await service.startRun({ patch: { election: { lease_ms: 200 } }, priority: 9 });
    expect(urgent).toMatchObject({ decision: 'applied', emergency: true });
    expect(runtime.strategy().election.lease_ms).toBe(200);
    expect(service.runs()).toHaveLength(3);
    expect(service.run(urgent.proposal.id)).toEqual(urgent);
    expect((await service.status()).pending).toHaveLength(1);
    await expect(service.startRun({ patch: { election: { lease_ms: 'soon' } }, priority: 11 })).rejects.toThrow(
      /election.lease_ms[\s\S]*priority/,
    );
    await expect(service.startRun({})).rejects.toThrow(/patch: required/);
    evolution.dispose();
  });
});
