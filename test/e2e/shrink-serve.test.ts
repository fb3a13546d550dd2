/** `arena shrink --serve [PORT]`: a second client follows the shrink on /arena/stream (candidate, size, runs spent). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { frameJson, openSse, type ParsedFrame } from '../helpers/sse.js';

const FIXTURE = 'test/fixtures/shrink/two-fault-bug.yaml';
const OFF = 'strategies/recovery-off.yaml';
// a safety net: about twenty one-second candidate runs on an idle machine
const LONG = 600_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-shrink-serve-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Progress {
  phase: string;
  candidates: number;
  size: number;
  runs: number;
  trying?: string[];
}
type Phases = Record<string, { runs: number; candidates: number }>;
/** a stream frame carries the stored event: what was published is its data */
const dataOf = <T>(frame: ParsedFrame): T => frameJson<{ data: T }>(frame).data;

describe('arena shrink --serve', () => {
  it(
    'serves each candidate tried, the current size and the runs spent as events, behind ARENA_API_KEY, and ends the stream after',
    async () => {
      const report = join(dir, 'report.json');
      const run = await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
      expect(run.exitCode).toBe(1);

      const child = arena(['shrink', report, '--out', join(dir, 'min.yaml'), '--json', '--serve', '0'], {
        env: { ARENA_API_KEY: 'shrink-key' },
        timeout: LONG,
      });
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (c: Buffer) => {
          err += c.toString();
          const m = /serving run events on (http:\/\/\S+)\/arena\/stream \(auth: on\)/.exec(err);
          if (m) resolve(m[1]!);
        });
        void child.then(() => reject(new Error(`no URL printed: ${err}`)));
      });
      expect((await fetch(`${url}/arena/stream`)).status).toBe(401);
      const conn = await openSse({
        url: `${url}/arena/stream`,
        headers: { 'X-API-Key': 'shrink-key', 'Last-Event-ID': '0' },
      });
      await conn.waitFor((f) => f.event === 'shrink.finished', LONG);
      await conn.ended;
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { runs: number; minimal_faults: number; runs_by_phase: Phases };

      const frames = conn.frames.filter((f) => f.event?.startsWith('shrink.'));
      expect(frames[0]!.event).toBe('shrink.started');
      expect(dataOf<{ original_faults: number }>(frames[0]!).original_faults).toBe(6);
      const progress = frames.filter((f) => f.event === 'shrink.progress').map((f) => dataOf<Progress>(f));
      // the first candidate is the whole run, reproduced; then the search tries smaller ones
      expect(progress[0]).toEqual({
        phase: 'reproduce',
        candidates: 1,
        size: 6,
        runs: 0,
        trying: expect.arrayContaining(['kill-3', 'slow-3']),
      });
      const search = progress.filter((p) => p.phase === 'search');
      expect(search.length).toBeGreaterThan(0);
      for (const p of search) expect(p.trying!.length).toBeLessThan(6);
      // candidates count up one by one, runs spent and the confirmed size only move one way
      progress.forEach((p, i) => {
        if (i === 0) return;
        const before = progress[i - 1]!;
        expect(p.runs).toBeGreaterThanOrEqual(before.runs);
        expect(p.size).toBeLessThanOrEqual(before.size);
      });
      expect(progress.filter((p) => p.trying).map((p) => p.candidates)).toEqual(
        progress.filter((p) => p.trying).map((_, i) => i + 1),
      );
      const smaller = frames.filter((f) => f.event === 'shrink.smaller').map((f) => dataOf<{ size: number }>(f));
      expect(smaller.at(-1)!.size).toBe(2);

      // the closing event carries what --json printed: the runs, and where they went
      const finished = dataOf<{ status: string; runs: number; minimal_faults: number; runs_by_phase: Phases }>(
        frames.at(-1)!,
      );
      expect(frames.at(-1)!.event).toBe('shrink.finished');
      expect(finished).toMatchObject({ status: 'shrunk', runs: doc.runs, minimal_faults: 2 });
      expect(finished.runs_by_phase).toEqual(doc.runs_by_phase);
      const phaseRuns = Object.values(doc.runs_by_phase).reduce((a, p) => a + p.runs, 0);
      expect(phaseRuns).toBe(doc.runs);
      expect(conn.frames.at(-1)!.event).toBe('shutdown');
    },
    LONG,
  );
});
