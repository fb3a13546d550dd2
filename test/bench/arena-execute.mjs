#!/usr/bin/env node
/**
 * What ArenaService.execute costs on top of the fault itself: the same pause → resume pair
 * on the embedded target, once through the provider directly (baseline) and once through the
 * service (createAction, metadata parsing, history, stats, metrics, an event appended to an
 * in-memory store with a live subscriber, a flight bridge). Each round runs a batch of each on
 * fresh stores, so a noisy neighbour hits all alike; the figure is the median over rounds of CPU
 * time per pair.
 * Run: npm run build && node test/bench/arena-execute.mjs [rounds]
 * BENCH_DIST=/path/to/another/dist runs the same bench on another build (A/B); BENCH_ROUNDS=1 also
 * prints every round's figure, to see the spread behind the medians.
 */
const dist = process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST.replace(/\/?$/, '/')}` : new URL('../../dist/', import.meta.url).href;
const { createEmbeddedTarget } = await import(`${dist}targets/embedded/index.js`);
const { ArenaService } = await import(`${dist}arena/service.js`);
const { Injector } = await import(`${dist}arena/injector.js`);
const { createAction } = await import(`${dist}arena/actions.js`);
const { MemoryEventStore } = await import(`${dist}events/memory.js`);

const ROUNDS = Number(process.argv[2] ?? 30);
const BATCH = 2000;

const target = createEmbeddedTarget({ workloadRate: 5 });
await target.start();
const injector = new Injector(target.runtime, target.dag);
let recorded = 0;
let seen = 0;

/**
 * One round's fresh state: a service whose store has a live subscriber (as the SSE stream and the web
 * console do), and the floor's own store with one too, so every round starts from the same heap and a
 * round's figure includes the garbage collection its own events cause.
 */
function freshRound() {
  const store = new MemoryEventStore();
  const service = new ArenaService({ injector, eventStore: store, historyLimit: 1000 });
  service.setFlightBridge({ record: () => void recorded++ });
  const floorStore = new MemoryEventStore();
  const controller = new AbortController();
  const consume = async (events, counts) => {
    for await (const _ of events) if (counts) seen++;
  };
  const consuming = Promise.all([
    consume(store.subscribe({ stream_id: 'arena' }, undefined, { signal: controller.signal }), true),
    consume(floorStore.subscribe({ stream_id: 'floor' }, undefined, { signal: controller.signal }), false),
  ]);
  return { service, floorStore, stop: () => (controller.abort(), consuming) };
}

async function direct() {
  await target.runtime.pauseAgent('agent-2');
  await target.runtime.resumeAgent('agent-2');
}

// the floor: what any front door that keeps its events and streams them live must do on top of the
// fault (a new action, its result appended to an in-memory store that a subscriber reads)
async function directAndStored({ floorStore }) {
  await target.runtime.pauseAgent('agent-2');
  await floorStore.append('floor', [{ type: 'arena.action.executed', data: { success: true, action: createAction('pause_agent', 'agent-2'), duration_ms: 0 } }], -1);
  await target.runtime.resumeAgent('agent-2');
  await floorStore.append('floor', [{ type: 'arena.action.executed', data: { success: true, action: createAction('resume_agent', 'agent-2'), duration_ms: 0 } }], -1);
}

async function viaService({ service }) {
  const paused = await service.execute(createAction('pause_agent', 'agent-2'));
  const resumed = await service.execute(createAction('resume_agent', 'agent-2'));
  if (!paused.success || !resumed.success) throw new Error(paused.error ?? resumed.error);
}

/** CPU µs per pause + resume, the batch's garbage collection included: on a shared machine, wall time also counts other processes' turns */
async function batch(fn, round) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < BATCH; i++) await fn(round);
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / BATCH;
}

async function oneRound() {
  const round = freshRound();
  const figures = [await batch(direct, round), await batch(directAndStored, round), await batch(viaService, round)];
  await round.stop();
  return figures;
}

// warm-up: JIT every path before measuring
for (let i = 0; i < 3; i++) await oneRound();
const a = [];
const f = [];
const b = [];
const cpu0 = process.cpuUsage();
for (let r = 0; r < ROUNDS; r++) {
  const [x, y, z] = await oneRound();
  a.push(x);
  f.push(y);
  b.push(z);
}
const cpu = process.cpuUsage(cpu0);
await target.stop();

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const [ma, mf, mb] = [median(a), median(f), median(b)];
console.log(`pause + resume, ${ROUNDS} rounds × ${BATCH} pairs each on fresh stores, median of the rounds' CPU time per pair, garbage collection included (process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`);
console.log(`provider directly (baseline)  ${ma.toFixed(2)} µs`);
console.log(`floor: + action, stored   ${mf.toFixed(2)} µs  ratio ${(mf / ma).toFixed(2)}x`);
console.log(`ArenaService.execute          ${mb.toFixed(2)} µs  ratio ${(mb / ma).toFixed(2)}x  (the service adds ${(mb - ma).toFixed(2)} µs per pair; ${recorded} flight records, ${seen} events seen live)`);
if (process.env.BENCH_ROUNDS) for (const [k, xs] of [['direct', a], ['floor', f], ['service', b]]) console.log(k.padEnd(8), xs.map((x) => x.toFixed(1)).join(' '));
