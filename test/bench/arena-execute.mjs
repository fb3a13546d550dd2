#!/usr/bin/env node
/**
 * What ArenaService.execute costs on top of the fault itself: the same pause → resume pair on the
 * embedded target, once through the provider directly (baseline), once as the floor any front door
 * that keeps and streams its events pays (a new action, its event appended to an in-memory store a
 * live subscriber reads), once as the least an execute that keeps what the service keeps can do (the
 * floor, plus the fault timed by two clock reads and a Result with the report copied as its metadata,
 * kept in a history array and the metrics, its event appended at the expected version), and once
 * through the service (createAction, metadata parsing, history, stats and metrics, an event appended
 * to an in-memory store with a live subscriber, a flight bridge). The floor and the least append as
 * the service does: synchronously, with the store's appendSync, when the build has it.
 *
 * How, and why so: each set is a process of its own, run with V8's --single-threaded, so a batch's GC
 * and JIT work is done, and counted, on the thread that caused it rather than on helper threads whose
 * CPU lands in whatever batch is running. In it the four variants take turns batch by batch (the
 * order turns each round), so a slow spell of the machine hits all of them alike, and each batch starts
 * with 300 untimed pairs on its fresh stores, during which a collection of what the previous batch
 * left mostly falls. The ratios are taken within each process; the median over processes is printed.
 * Before, with no untimed start and GC on helper threads, the baseline came out at 1.5 or 3 µs from
 * run to run.
 * Run: npm run build && node test/bench/arena-execute.mjs [rounds] [sets]
 * BENCH_DIST=/path/to/another/dist runs the same bench on another build (A/B); BENCH_ROUNDS=1 also
 * prints every set's figures, to see the spread behind the medians; BENCH_NODE_FLAGS passes V8 flags
 * to the processes (e.g. "--max-semi-space-size=64 --min-semi-space-size=64", to see what of the
 * cost is young-generation GC).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const VARIANTS = ['direct', 'floor', 'least', 'service'];
const BATCH = 2000;
const WARM = 300;

if (process.argv[2] === '--set') {
  const rounds = Number(process.argv[3]);
  process.stdout.write(`${JSON.stringify(await measureSet(rounds))}\n`);
} else {
  const rounds = Number(process.argv[2] ?? 30);
  const sets = Number(process.argv[3] ?? 5);
  const results = [];
  for (let s = 0; s < sets; s++) {
    const out = execFileSync(
      process.execPath,
      [
        ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
        '--single-threaded',
        fileURLToPath(import.meta.url),
        '--set',
        String(rounds),
      ],
      { encoding: 'utf8', env: process.env },
    );
    results.push(JSON.parse(out));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const of = (f) => median(results.map(f));
  const events = results[0].events;
  console.log(
    `pause + resume, ${sets} processes × (${rounds} rounds × ${BATCH} pairs per variant) on fresh stores; medians over the processes of CPU time per pair (GC included) and of the ratios within each`,
  );
  console.log(`provider directly (baseline)  ${of((r) => r.direct.median).toFixed(2)} µs`);
  console.log(
    `floor: + action, stored       ${of((r) => r.floor.median).toFixed(2)} µs  ratio ${of((r) => r.floor.median / r.direct.median).toFixed(2)}x`,
  );
  console.log(
    `least: + Result, kept         ${of((r) => r.least.median).toFixed(2)} µs  ratio ${of((r) => r.least.median / r.direct.median).toFixed(2)}x  (${of((r) => r.least.median / r.floor.median).toFixed(2)}x the floor)`,
  );
  console.log(
    `ArenaService.execute          ${of((r) => r.service.median).toFixed(2)} µs  ratio ${of((r) => r.service.median / r.direct.median).toFixed(2)}x  (${of((r) => r.service.median / r.floor.median).toFixed(2)}x the floor, ${of((r) => r.service.median / r.least.median).toFixed(2)}x the least; ${events} events seen live)`,
  );
  if (process.env.BENCH_ROUNDS)
    for (const v of VARIANTS) console.log(v.padEnd(8), results.map((r) => r[v].median.toFixed(2)).join(' '));
}

/** one process: the four variants in turns, round by round; each variant's median of CPU µs per pair */
async function measureSet(rounds) {
  const dist = process.env.BENCH_DIST
    ? `${pathToFileURL(resolve(process.env.BENCH_DIST)).href}/`
    : new URL('../../dist/', import.meta.url).href;
  const { createEmbeddedTarget } = await import(`${dist}targets/embedded/index.js`);
  const { ArenaService } = await import(`${dist}arena/service.js`);
  const { Injector } = await import(`${dist}arena/injector.js`);
  const { createAction } = await import(`${dist}arena/actions.js`);
  const { MemoryEventStore } = await import(`${dist}events/memory.js`);
  const { MetricsCollector } = await import(`${dist}arena/metrics.js`);

  const target = createEmbeddedTarget({ workloadRate: 5 });
  await target.start();
  const injector = new Injector(target.runtime, target.dag);
  let events = 0;

  const pairs = {
    async direct() {
      await target.runtime.pauseAgent('agent-2');
      await target.runtime.resumeAgent('agent-2');
    },
    async floor({ store }) {
      await target.runtime.pauseAgent('agent-2');
      const paused = append(
        store,
        [
          {
            type: 'arena.action.executed',
            data: { success: true, action: createAction('pause_agent', 'agent-2'), duration_ms: 0 },
          },
        ],
        -1,
      );
      if (paused instanceof Promise) await paused;
      await target.runtime.resumeAgent('agent-2');
      const resumed = append(
        store,
        [
          {
            type: 'arena.action.executed',
            data: { success: true, action: createAction('resume_agent', 'agent-2'), duration_ms: 0 },
          },
        ],
        -1,
      );
      if (resumed instanceof Promise) await resumed;
    },
    async least(state) {
      const pause = createAction('pause_agent', 'agent-2');
      const paused = performance.now();
      await keep(state, pause, paused, await target.runtime.pauseAgent('agent-2', {}));
      const resume = createAction('resume_agent', 'agent-2');
      const resumed = performance.now();
      await keep(state, resume, resumed, await target.runtime.resumeAgent('agent-2'));
    },
    async service({ service }) {
      const paused = await service.execute(createAction('pause_agent', 'agent-2'));
      const resumed = await service.execute(createAction('resume_agent', 'agent-2'));
      if (!paused.success || !resumed.success) throw new Error(paused.error ?? resumed.error);
    },
  };

  /** what `least` keeps of one action: its Result in history and metrics, its event stored at the version the last append left */
  async function keep(state, action, started, report) {
    const result = {
      success: true,
      action,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      metadata: { ...report },
    };
    state.history.push(result);
    state.metrics.recordActionResult(result);
    const stored = append(state.store, [{ type: 'arena.action.executed', data: result }], state.version);
    const [event] = stored instanceof Promise ? await stored : stored;
    state.version = event.version;
  }

  /**
   * The store's synchronous append when it has one, as the service uses it (an older build's store has
   * only `append`); the callers await only a promise, since an await costs a tick even on a plain value.
   */
  function append(store, events, version) {
    return store.appendSync ? store.appendSync('arena', events, version) : store.append('arena', events, version);
  }

  /** one batch of a variant on fresh state: a store with a live subscriber (as the SSE stream and the web console read it), and the service over it */
  async function batch(variant) {
    const store = new MemoryEventStore();
    const service = new ArenaService({ injector, eventStore: store, historyLimit: 1000 });
    service.setFlightBridge({ record: () => {} });
    const controller = new AbortController();
    const consuming = (async () => {
      for await (const _ of store.subscribe({ stream_id: 'arena' }, undefined, { signal: controller.signal })) events++;
    })();
    const pair = pairs[variant];
    const state = { store, service, history: [], metrics: new MetricsCollector(), version: 0 };
    // untimed: a collection of what the previous batch left mostly falls here rather than in the timing
    for (let i = 0; i < WARM; i++) await pair(state);
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) await pair(state);
    const cpu = process.cpuUsage(cpu0);
    controller.abort();
    await consuming;
    return (cpu.user + cpu.system) / BATCH;
  }

  const figures = Object.fromEntries(VARIANTS.map((v) => [v, []]));
  for (let r = -3; r < rounds; r++) {
    // the order turns each round, so no variant always follows the same one
    for (let k = 0; k < VARIANTS.length; k++) {
      const v = VARIANTS[(r + 3 + k) % VARIANTS.length];
      const x = await batch(v);
      if (r >= 0) figures[v].push(x); // the first three rounds warm the JIT up
    }
  }
  await target.stop();
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { ...Object.fromEntries(VARIANTS.map((v) => [v, { median: median(figures[v]) }])), events };
}
