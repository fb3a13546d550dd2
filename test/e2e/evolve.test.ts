import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { arena, REPO_ROOT } from '../helpers/cli.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-e2e-evolve-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena evolve', () => {
  it('evolves from recovery-off, writes the best strategy, and arena regress reads it', async () => {
    const out = join(dir, 'best.yaml');
    const from = join(REPO_ROOT, 'strategies/recovery-off.yaml');
    const evolve = await arena([
      'evolve',
      '--generations',
      '3',
      '--population',
      '4',
      '--seed',
      '5',
      '--from',
      from,
      '--duration',
      '300ms',
      '--interval',
      '60ms',
      '--out',
      out,
      '--json',
    ]);
    expect(evolve.exitCode, evolve.stderr).toBe(0);
    const doc = JSON.parse(evolve.stdout);
    expect(doc).toMatchObject({ schema_version: 1, seed: 5, population: 4, out });
    expect(doc.generations).toHaveLength(3);
    for (const g of doc.generations) {
      expect(g.worst).toBeLessThanOrEqual(g.mean);
      expect(g.mean).toBeLessThanOrEqual(g.best);
      expect(g.diversity).toBeGreaterThanOrEqual(0);
    }
    expect(doc.best.fitness).toBeGreaterThanOrEqual(doc.initial_fitness);
    // 300 ms runs of 5 faults: the recommendation comes with a word about noise
    expect(doc.warnings).toEqual([
      expect.stringMatching(/^each evaluation is one 300ms survival run with 5 fault\(s\)/),
    ]);
    expect(evolve.stderr).toMatch(/^evolve: warning: each evaluation is one 300ms survival run/m);
    // progress went to stderr, one line per generation
    expect(evolve.stderr.match(/^generation \d\/3: best/gm)).toHaveLength(3);
    expect(parse(readFileSync(out, 'utf8'))).toEqual(doc.best.strategy);

    const regress = await arena([
      'regress',
      '--baseline',
      from,
      '--candidate',
      out,
      '--survival',
      '300ms',
      '--interval',
      '60ms',
      '--runs',
      '3',
      '--recovery-deadline',
      '300ms',
      '--seed',
      '1',
      '--json',
    ]);
    expect([0, 1], regress.stderr).toContain(regress.exitCode);
    expect(JSON.parse(regress.stdout).regression.mode).toBe('strategies');
  });

  it('rejects bad options with exit 2', async () => {
    expect((await arena(['evolve', '--population', '1'])).exitCode).toBe(2);
    const elitism = await arena(['evolve', '--population', '3', '--elitism', '3']);
    expect(elitism.exitCode).toBe(2);
    expect(elitism.stderr).toMatch(/--elitism/);
    const from = await arena(['evolve', '--from', join(dir, 'missing.yaml')]);
    expect(from.exitCode).toBe(2);
    expect(from.stderr).toMatch(/missing.yaml/);
  });
});
