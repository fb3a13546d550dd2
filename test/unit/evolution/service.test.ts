import { describe, expect, it } from 'vitest';
import { EvolutionService, parseRunRequest } from '../../../src/evolution/service.js';
import { createRuntimeEvolution } from '../../../src/evolution/bridge.js';
import { createRuntime } from '../../../src/runtime/runtime.js';
import { RECOVERY_OFF_STRATEGY, type Strategy } from '../../../src/runtime/strategy.js';
import { ConflictError, NotFoundError, UsageError } from '../../../src/shared/errors.js';

const synthetic = () => (s: Strategy) => [s.supervisor, s.election, s.failover, s.checkpoints, s.integrity, s.dag].filter((m) => m.enabled).length * 10;

describe('EvolutionService', () => {
  it('runs a search in the background, lists it, and applies the best strategy to the runtime', async () => {
    const runtime = createRuntime({ strategy: RECOVERY_OFF_STRATEGY });
    const evolution = createRuntimeEvolution(runtime);
    const service = new EvolutionService({ fitness: synthetic, runtime, coordinator: evolution.coordinator });
    const run = service.startRun({ generations: 4, population: 6, seed: 3, initial: RECOVERY_OFF_STRATEGY, apply: true });
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
    expect(parseRunRequest({})).toMatchObject({ generations: 5, population: 6, seed: 1, duration_ms: 1000, interval_ms: 150 });
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
    expect(() => new EvolutionService().startRun({ apply: true })).toThrow(/no running runtime/);
  });
});
