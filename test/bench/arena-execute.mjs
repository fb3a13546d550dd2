#!/usr/bin/env node
/**
 * What ArenaService.execute costs on top of the fault itself: the same pause → resume pair
 * on the embedded target, once through the provider directly (baseline) and once through the
 * service (createAction, metadata parsing, history, stats, metrics, an event appended to an
 * in-memory store with a live subscriber, a flight bridge). Batches of the two alternate so
 * a noisy neighbour hits both alike; the figure is the median over batches of CPU time per pair.
 * Run: npm run build && node test/bench/arena-execute.mjs [rounds]
 * BENCH_DIST=/path/to/another/dist runs the same bench on another build (A/B).
 */
const dist = process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST.replace(/\/?$/, '/')}` : new URL('../../dist/', import.meta.url).href;
const { createEmbeddedTarget } = await import(`${dist}targets/embedded/index.js`);
const { ArenaService } = await import(`${dist}arena/service.js`);
const { Injector } = await import(`${dist}arena/injector.js`);
const { createAction } = await import(`${dist}arena/actions.js`);
const { MemoryEventStore } = await import(`${dist}events/memory.js`);

const ROUNDS = Number(process.argv[2] ?? 30);
const BATCH = 500;

const target = createEmbeddedTarget({ workloadRate: 5 });
await target.start();
const store = new MemoryEventStore();
const service = new ArenaService({ injector: new Injector(target.runtime, target.dag), eventStore: store, historyLimit: 1000 });
let recorded = 0;
service.setFlightBridge({ record: () => void recorded++ });
// a live subscriber, as the SSE stream and the web console are
const controller = new AbortController();
let seen = 0;
const consuming = (async () => {
  for await (const _ of store.subscribe({ stream_id: 'arena' }, undefined, { signal: controller.signal })) seen++;
})();

async function direct() {
  await target.runtime.pauseAgent('agent-2');
  await target.runtime.resumeAgent('agent-2');
}

// the floor: what any front door that keeps its events must do on top of the fault (a new action,
// its result appended to an in-memory store); its own store, so both stores grow alike
const floorStore = new MemoryEventStore();
async function directAndStored() {
  await target.runtime.pauseAgent('agent-2');
  await floorStore.append('floor', [{ type: 'arena.action.executed', data: { success: true, action: createAction('pause_agent', 'agent-2'), duration_ms: 0 } }], -1);
  await target.runtime.resumeAgent('agent-2');
  await floorStore.append('floor', [{ type: 'arena.action.executed', data: { success: true, action: createAction('resume_agent', 'agent-2'), duration_ms: 0 } }], -1);
}

async function viaService() {
  const paused = await service.execute(createAction('pause_agent', 'agent-2'));
  const resumed = await service.execute(createAction('resume_agent', 'agent-2'));
  if (!paused.success || !resumed.success) throw new Error(paused.error ?? resumed.error);
}

/** CPU µs per pause + resume: on a shared machine, wall time also counts other processes' turns */
async function batch(fn) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < BATCH; i++) await fn();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / BATCH;
}

// warm-up: JIT both paths before measuring
for (let i = 0; i < 3; i++) {
  await batch(direct);
  await batch(directAndStored);
  await batch(viaService);
}
const a = [];
const f = [];
const b = [];
const cpu0 = process.cpuUsage();
for (let r = 0; r < ROUNDS; r++) {
  a.push(await batch(direct));
  f.push(await batch(directAndStored));
  b.push(await batch(viaService));
}
const cpu = process.cpuUsage(cpu0);
controller.abort();
await consuming;
await target.stop();

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const [ma, mf, mb] = [median(a), median(f), median(b)];
console.log(`pause + resume, ${ROUNDS} rounds × ${BATCH} pairs each, median of the batches' CPU time per pair (process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`);
console.log(`provider directly (baseline)  ${ma.toFixed(2)} µs`);
console.log(`floor: + action, stored   ${mf.toFixed(2)} µs  ratio ${(mf / ma).toFixed(2)}x`);
console.log(`ArenaService.execute          ${mb.toFixed(2)} µs  ratio ${(mb / ma).toFixed(2)}x  (the service adds ${(mb - ma).toFixed(2)} µs per pair; ${recorded} flight records, ${seen} events seen live)`);
