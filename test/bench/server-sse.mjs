#!/usr/bin/env node
/**
 * Delivery latency of one arena event to N SSE subscribers of GET /arena/stream
 * (default 1,000), two figures:
 * - in-process fan-out: from ArenaService.execute() until every subscriber's
 *   frame has been handed to its socket (p50/p99 over events);
 * - delivery under a real N-client load: until each client parsed the frame,
 *   p50/p99 over every delivery of every event. The
 * clients run in a child process; both processes read the system's monotonic
 * clock (process.hrtime) so times are comparable.
 * Baseline in the same run: the same event delivered to 1 subscriber.
 * Floors in the same run, the same frame written with one write per socket, what the arena's fan-out
 * cannot go under on this machine, since each subscriber costs one socket write:
 * - bare TCP: a node:net server, N raw sockets (no HTTP, no arena), read the same way;
 * - bare HTTP: a node:http server answering each GET with the same event-stream head, then writing
 *   the frame with res.write as the arena does, read by the same HTTP clients as the arena's (their
 *   response parsing is in the delivery time; the bare TCP clients have none).
 * Many runs' figures come out in one: BENCH_EVENTS=60 gives p99s of 60,000 deliveries.
 * Run: npm run build && node test/bench/server-sse.mjs
 * BENCH_DIST=/path/to/another/dist runs the same bench on another build (A/B of two versions).
 */
import { fork } from 'node:child_process';
import { request, Agent, createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { availableParallelism, loadavg } from 'node:os';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
// CLOCK_MONOTONIC, one clock for every process on the machine (performance.timeOrigin is taken per
// process and two of them can disagree by more than the latencies measured here)
const now = () => Number(process.hrtime.bigint()) / 1e6;

if (process.argv[2] === 'clients') {
  // the subscribers: open N streams, report when each saw which id
  const [url, n] = [process.argv[3], Number(process.argv[4])];
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const arrivals = []; // [id, time]
  let ready = 0;
  // tcp://host:port: the floor's raw sockets, read the same way as the HTTP responses
  const open = url.startsWith('tcp:')
    ? (onStream) => onStream(connect(Number(new URL(url).port), '127.0.0.1'))
    : (onStream) => request(url, { agent, headers: { Accept: 'text/event-stream' } }, onStream).end();
  for (let i = 0; i < n; i++) {
    open((res) => {
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk) => {
        const t = now();
        buf += chunk;
        let idx;
        while ((idx = buf.indexOf('\n\n')) !== -1) {
          const frame = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          if (frame.includes('event: ready')) {
            if (++ready === n) process.send({ ready: true });
            continue;
          }
          const m = /^id: (\d+)$/m.exec(frame);
          if (m) arrivals.push([Number(m[1]), t]);
        }
      });
    });
  }
  process.on('message', (m) => {
    if (m === 'report') process.send({ arrivals });
  });
} else {
  const dist = process.env.BENCH_DIST
    ? `${pathToFileURL(resolve(process.env.BENCH_DIST)).href}/`
    : new URL('../../dist/', import.meta.url).href;
  const { Router } = await import(`${dist}server/router.js`);
  const { listen } = await import(`${dist}server/listen.js`);
  const { ArenaHandler } = await import(`${dist}server/arena-handler.js`);
  const { ArenaService } = await import(`${dist}arena/service.js`);
  const { Injector } = await import(`${dist}arena/injector.js`);
  const { createAction } = await import(`${dist}arena/actions.js`);
  const { MemoryEventStore } = await import(`${dist}events/memory.js`);

  /**
   * Opens `subscribers` clients on `url` in a child process, emits EVENTS + 1 events through `emit(i)`
   * (event 1 warms the path: JIT, socket buffers, and is left out of the figures), and collects
   * the server-side fan-out times, the clients' arrivals and the server CPU per event.
   */
  const measure = async (url, subscribers, emit) => {
    const child = fork(fileURLToPath(import.meta.url), ['clients', url, String(subscribers)]);
    await new Promise((resolve) => child.once('message', resolve));
    const sent = new Map();
    // server CPU per event: less sensitive than latency to a loaded machine (other processes' time is not counted)
    const cpuBefore = process.cpuUsage();
    const fanout = [];
    for (let i = 1; i <= EVENTS + 1; i++) {
      const t0 = now();
      sent.set(i, t0);
      await emit(i);
      // by the check phase every subscriber's frame has been handed to its socket (microtasks and ticks ran)
      await new Promise((r) => setImmediate(r));
      if (i > 1) fanout.push(now() - t0);
      await new Promise((r) => setTimeout(r, 50)); // let every subscriber receive it before the next
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerEvent = (cpu.user + cpu.system) / 1000 / (EVENTS + 1);
    await new Promise((r) => setTimeout(r, 200));
    child.send('report');
    const { arrivals } = await new Promise((resolve) => child.once('message', resolve));
    child.kill();
    fanout.sort((x, y) => x - y);
    const latencies = arrivals
      .filter(([id]) => id > 1)
      .map(([id, t]) => t - sent.get(id))
      .sort((x, y) => x - y);
    const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
    const qf = (p) => fanout[Math.min(fanout.length - 1, Math.floor(p * fanout.length))];
    return {
      subscribers,
      deliveries: latencies.length,
      expected: subscribers * EVENTS,
      p50: q(0.5),
      p99: q(0.99),
      max: latencies.at(-1),
      cpuPerEvent,
      fanP50: qf(0.5),
      fanP99: qf(0.99),
    };
  };

  /** the arena: an event from ArenaService.execute to every GET /arena/stream client */
  const run = async (subscribers) => {
    // no target: every action fails fast, which still publishes an arena event
    const service = new ArenaService({ injector: new Injector(), eventStore: new MemoryEventStore() });
    const handler = new ArenaHandler(service);
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 15_000 } }).registerArenaEndpoints(handler);
    const server = await listen(router, { port: 0 });
    const result = await measure(`${server.url}/arena/stream`, subscribers, (i) =>
      service.execute(createAction('kill_agent', `agent-${i}`)),
    );
    await server.close();
    await handler.close();
    return result;
  };

  /** the floors' frame: an arena event's size and shape, built by hand */
  const floorFrame = (i) =>
    Buffer.from(
      `event: arena.action.failed\nid: ${i}\ndata: ${JSON.stringify({ id: i, type: 'arena.action.failed', data: { success: false, error: 'x'.repeat(200) } })}\n\n`,
    );

  /** the floor: a bare TCP server writes the same frame to every socket, one write each */
  const runRawTcp = async (subscribers) => {
    const sockets = new Set();
    const server = createServer((socket) => {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.write('event: ready\ndata: {}\n\n');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const result = await measure(`tcp://127.0.0.1:${server.address().port}`, subscribers, (i) => {
      const frame = floorFrame(i);
      for (const socket of sockets) socket.write(frame);
    });
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => server.close(r));
    return result;
  };

  /** the like-for-like floor: a bare HTTP server, the arena's response head, the frame through each res.write */
  const runRawHttp = async (subscribers) => {
    const responses = new Set();
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
      });
      res.flushHeaders();
      responses.add(res);
      res.on('close', () => responses.delete(res));
      res.write('event: ready\ndata: {}\n\n');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const result = await measure(`http://127.0.0.1:${server.address().port}/`, subscribers, (i) => {
      const frame = floorFrame(i);
      for (const res of responses) res.write(frame);
    });
    for (const res of responses) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    return result;
  };

  const one = await run(1);
  const many = await run(SUBSCRIBERS);
  const floor = await runRawTcp(SUBSCRIBERS);
  const httpFloor = await runRawHttp(SUBSCRIBERS);
  const fmt = (r) =>
    `${String(r.subscribers).padStart(5)} subscriber(s): in-process fan-out p50 ${r.fanP50.toFixed(2)} ms, p99 ${r.fanP99.toFixed(2)} ms · ` +
    `delivered to the clients ${r.deliveries}/${r.expected}, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms · server CPU ${r.cpuPerEvent.toFixed(2)} ms/event`;
  console.log(fmt(one));
  console.log(fmt(many));
  console.log(`floor, bare TCP: ${fmt(floor)}`);
  console.log(`floor, bare HTTP: ${fmt(httpFloor)}`);
  console.log(
    `ratio ${SUBSCRIBERS}/1: in-process fan-out p99 ${(many.fanP99 / one.fanP99).toFixed(1)}x; delivery p50 ${(many.p50 / one.p50).toFixed(1)}x, p99 ${(many.p99 / one.p99).toFixed(1)}x; ` +
      `server CPU per event ${(many.cpuPerEvent / one.cpuPerEvent).toFixed(1)}x; ` +
      `arena over the bare-TCP floor: fan-out p99 ${(many.fanP99 / floor.fanP99).toFixed(2)}x, delivery p99 ${(many.p99 / floor.p99).toFixed(2)}x, CPU ${(many.cpuPerEvent / floor.cpuPerEvent).toFixed(2)}x; ` +
      `over the bare-HTTP floor: fan-out p99 ${(many.fanP99 / httpFloor.fanP99).toFixed(2)}x, delivery p99 ${(many.p99 / httpFloor.p99).toFixed(2)}x, CPU ${(many.cpuPerEvent / httpFloor.cpuPerEvent).toFixed(2)}x  [${EVENTS} events each; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores]`,
  );
}
