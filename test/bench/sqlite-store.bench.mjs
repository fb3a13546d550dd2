#!/usr/bin/env node
/**
 * Appends per second through SqliteEventStore vs raw INSERTs into the same
 * database file, same pragmas (WAL), measured in the same run.
 *
 *   npm run build && node test/bench/sqlite-store.bench.mjs [--sync FULL|NORMAL] [--n 2000]
 *
 * Baselines: "raw single" = one autocommit INSERT per event (what the store's
 * single-event append does, minus the version check, validation, JSON and
 * wake-ups); "raw batch" = N INSERTs in one transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const sync = opt('sync', 'FULL');
const n = Number(opt('n', '2000'));
const batchSize = Number(opt('batch', '50'));
const modulePath = process.env.SQLITE_STORE_MODULE ?? new URL('../../dist/events/sqlite.js', import.meta.url).href;
const { SqliteEventStore } = await import(modulePath);

const dir = mkdtempSync(join(tmpdir(), 'arena-bench-'));
const store = new SqliteEventStore({ path: join(dir, 'bench.db'), synchronous: sync });
const db = store.database;
const payload = { agent: 'agent-1', kind: 'kill_agent', pad: 'x'.repeat(100) };

function rate(label, events, fn) {
  fn(Math.min(50, events)); // warm up statements and the page cache
  const t0 = process.hrtime.bigint();
  fn(events);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { label, events, ms, perSec: (events / ms) * 1000 };
}

const insert = db.prepare('INSERT INTO events (stream_id, version, type, data, at) VALUES (?, ?, ?, ?, ?)');
let rawV = 0;
let rawB = 0;
let storeV = 0;
let storeB = 0;
const rawSingle = rate('raw INSERT (autocommit)', n, (k) => {
  for (let i = 0; i < k; i++) insert.run('raw-single', ++rawV, 'e', JSON.stringify(payload), new Date().toISOString());
});
const storeSingle = rate('store.append (1 event)', n, (k) => {
  for (let i = 0; i < k; i++)
    storeV = store.appendSync('store-single', [{ type: 'e', data: payload }], storeV)[0].version;
});
const rawTx = db.transaction((k) => {
  for (let i = 0; i < k; i++) insert.run('raw-batch', ++rawB, 'e', JSON.stringify(payload), new Date().toISOString());
});
const rawBatch = rate(`raw INSERT x${batchSize} per transaction`, n * 10, (k) => {
  for (let i = 0; i < k; i += batchSize) rawTx(batchSize);
});
const events = Array.from({ length: batchSize }, () => ({ type: 'e', data: payload }));
const storeBatch = rate(`store.append (${batchSize} events)`, n * 10, (k) => {
  for (let i = 0; i < k; i += batchSize) {
    const out = store.appendSync('store-batch', events, storeB);
    storeB = out[out.length - 1].version;
  }
});

const fmt = (r) =>
  `${r.label.padEnd(34)} ${String(Math.round(r.perSec)).padStart(9)} events/s  (${r.events} in ${r.ms.toFixed(0)} ms)`;
console.log(`SQLite event store benchmark — WAL, synchronous=${sync}, node ${process.version}`);
console.log(fmt(rawSingle));
console.log(fmt(storeSingle));
console.log(`  ratio store/raw (single): ${(storeSingle.perSec / rawSingle.perSec).toFixed(2)}`);
console.log(fmt(rawBatch));
console.log(fmt(storeBatch));
console.log(`  ratio store/raw (batch ${batchSize}): ${(storeBatch.perSec / rawBatch.perSec).toFixed(2)}`);
store.close();
rmSync(dir, { recursive: true, force: true });
