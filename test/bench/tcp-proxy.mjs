#!/usr/bin/env node
/**
 * The TCP fault proxy with no fault against a direct connection, measured in
 * the same run (DESIGN §10.1 aims: < 100 µs added at p50, ≥ 1 GB/s through
 * one connection):
 *   - round trips of a small request/response: p50 / p99 direct and through the proxy
 *   - throughput over one connection, each way: direct and through the proxy,
 *     and through the proxy's faulted path (a 0 ms latency fault, queue on)
 *   - the same through a proxy of `arena toxiproxy` (DESIGN §17) with no toxic, created through its
 *     REST API as a Toxiproxy client would (aim: no worse than the arena's proxy)
 * The server and the proxy each run in their own child process, so the client's
 * event loop measures and nothing else. Run: npm run build && node test/bench/tcp-proxy.mjs
 * The machine is shared, so each figure is the best of BENCH_ROUNDS interleaved
 * rounds (BENCH_TRIPS, BENCH_MB, BENCH_ROUNDS change the sizes).
 */
import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const TRIPS = Number(process.env.BENCH_TRIPS ?? 20_000);
const MB = Number(process.env.BENCH_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHUNK = 64 * 1024;

if (process.argv[2] === 'server') {
  // echo for round trips; 'S' + 8-byte length = sink that many bytes then answer 'K';
  // 'D' + length = send that many bytes down
  const server = createServer({ noDelay: true }, (socket) => {
    let mode;
    let remaining = 0;
    socket.on('data', (chunk) => {
      if (mode === undefined) {
        const kind = chunk[0];
        if (kind === 0x53 || kind === 0x44) {
          remaining = Number(chunk.readBigUInt64BE(1));
          chunk = chunk.subarray(9);
          mode = kind === 0x53 ? 'sink' : 'source';
          if (mode === 'source') return void pump();
        } else mode = 'echo';
      }
      if (mode === 'echo') socket.write(chunk);
      else if (mode === 'sink') {
        remaining -= chunk.length;
        if (remaining <= 0) socket.write('K');
      }
    });
    const block = Buffer.alloc(CHUNK, 0x61);
    const pump = () => {
      while (remaining > 0) {
        const n = Math.min(CHUNK, remaining);
        remaining -= n;
        if (!socket.write(n === CHUNK ? block : block.subarray(0, n))) return void socket.once('drain', pump);
      }
    };
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else if (process.argv[2] === 'pipe') {
  // the floor for any proxy on node:net: two sockets piped to each other, nothing else
  const upstreamPort = Number(process.argv[3]);
  const server = createServer({ noDelay: true }, (client) => {
    const upstream = connect({ port: upstreamPort, host: '127.0.0.1', noDelay: true });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send((user + system) / 1e6);
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else if (process.argv[2] === 'proxy') {
  const { startTcpProxy } = await import('../../dist/proxies/tcp/proxy.js');
  const proxy = await startTcpProxy({
    listen: { port: 0 },
    upstream: { host: '127.0.0.1', port: Number(process.argv[3]) },
  });
  if (process.argv[4] === 'faulted') proxy.applyFault({ id: 'zero', type: 'latency', params: { latency_ms: 0 } });
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send((user + system) / 1e6);
  });
  process.send(proxy.port);
} else if (process.argv[2] === 'toxiproxy') {
  const { startToxiproxyServer } = await import('../../dist/proxies/toxiproxy/server.js');
  const api = await startToxiproxyServer({ port: 0, seed: 1 });
  const res = await fetch(`${api.url}/proxies`, {
    method: 'POST',
    body: JSON.stringify({ name: 'bench', listen: '127.0.0.1:0', upstream: `127.0.0.1:${process.argv[3]}` }),
  });
  const { listen } = await res.json();
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send((user + system) / 1e6);
  });
  process.send(Number(listen.slice(listen.lastIndexOf(':') + 1)));
} else {
  await main();
}

function child(args) {
  const proc = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) =>
    proc.once('message', (port) =>
      resolve({
        port,
        kill: () => proc.kill(),
        /** CPU seconds the child has used so far (proxies only) */
        cpu: () => new Promise((r) => (proc.once('message', r), proc.send('cpu'))),
      }),
    ),
  );
}

function dial(port) {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', noDelay: true });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

async function roundTrips(port) {
  const socket = await dial(port);
  const payload = Buffer.alloc(64, 0x70);
  const times = new Float64Array(TRIPS);
  let got = 0;
  let resolveTrip;
  socket.on('data', (chunk) => {
    got += chunk.length;
    if (got >= payload.length) {
      got -= payload.length;
      resolveTrip();
    }
  });
  for (let i = 0; i < TRIPS; i++) {
    const start = process.hrtime.bigint();
    await new Promise((r) => {
      resolveTrip = r;
      socket.write(payload);
    });
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  socket.destroy();
  times.sort();
  return { p50: times[Math.floor(TRIPS * 0.5)], p99: times[Math.floor(TRIPS * 0.99)] };
}

async function throughput(port, direction) {
  const socket = await dial(port);
  const total = MB * 1024 * 1024;
  const header = Buffer.alloc(9);
  header[0] = direction === 'up' ? 0x53 : 0x44;
  header.writeBigUInt64BE(BigInt(total), 1);
  const start = process.hrtime.bigint();
  await new Promise((resolve) => {
    if (direction === 'up') {
      socket.on('data', () => resolve());
      socket.write(header);
      const block = Buffer.alloc(CHUNK, 0x62);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += CHUNK;
          if (!socket.write(block)) return void socket.once('drain', pump);
        }
      };
      pump();
    } else {
      let got = 0;
      socket.on('data', (chunk) => {
        got += chunk.length;
        if (got >= total) resolve();
      });
      socket.write(header);
    }
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  socket.destroy();
  return total / seconds / 1e9;
}

async function main() {
  const server = await child(['server']);
  const proxy = await child(['proxy', String(server.port)]);
  const faulted = await child(['proxy', String(server.port), 'faulted']);
  const pipe = await child(['pipe', String(server.port)]);
  const toxi = await child(['toxiproxy', String(server.port)]);
  try {
    // warm up the JITs of all three processes
    await roundTrips(server.port);
    await roundTrips(proxy.port);
    await roundTrips(pipe.port);
    await roundTrips(toxi.port);
    const direct = await roundTrips(server.port);
    const piped = await roundTrips(pipe.port);
    const via = await roundTrips(proxy.port);
    const viaToxi = await roundTrips(toxi.port);
    console.log(`round trip, 64 B, ${TRIPS} sequential (µs):`);
    console.log(`  direct        p50 ${direct.p50.toFixed(1).padStart(7)}  p99 ${direct.p99.toFixed(1).padStart(7)}`);
    console.log(`  bare pipe()   p50 ${piped.p50.toFixed(1).padStart(7)}  p99 ${piped.p99.toFixed(1).padStart(7)}`);
    console.log(`  via proxy     p50 ${via.p50.toFixed(1).padStart(7)}  p99 ${via.p99.toFixed(1).padStart(7)}`);
    console.log(
      `  added         p50 ${(via.p50 - direct.p50).toFixed(1).padStart(7)}  p99 ${(via.p99 - direct.p99).toFixed(1).padStart(7)}   (aim: < 100 µs at p50)`,
    );
    console.log(
      `  via toxiproxy p50 ${viaToxi.p50.toFixed(1).padStart(7)}  p99 ${viaToxi.p99.toFixed(1).padStart(7)}   added p50 ${(viaToxi.p50 - direct.p50).toFixed(1)}`,
    );
    console.log(
      `  ratio         p50 ${(via.p50 / direct.p50).toFixed(2).padStart(7)}  p99 ${(via.p99 / direct.p99).toFixed(2).padStart(7)}`,
    );
    console.log(`throughput, ${MB} MiB over one connection, best of ${ROUNDS} (GB/s):`);
    for (const direction of ['up', 'down']) {
      let d = 0;
      let p = 0;
      let f = 0;
      let b = 0;
      let t = 0;
      let pipeCpu = Infinity;
      let cpu = Infinity;
      let faultedCpu = Infinity;
      let toxiCpu = Infinity;
      const legs = [
        async () => {
          const before = await pipe.cpu();
          b = Math.max(b, await throughput(pipe.port, direction));
          pipeCpu = Math.min(pipeCpu, (await pipe.cpu()) - before);
        },
        async () => {
          const before = await proxy.cpu();
          p = Math.max(p, await throughput(proxy.port, direction));
          cpu = Math.min(cpu, (await proxy.cpu()) - before);
        },
        async () => {
          const before = await faulted.cpu();
          f = Math.max(f, await throughput(faulted.port, direction));
          faultedCpu = Math.min(faultedCpu, (await faulted.cpu()) - before);
        },
        async () => {
          const before = await toxi.cpu();
          t = Math.max(t, await throughput(toxi.port, direction));
          toxiCpu = Math.min(toxiCpu, (await toxi.cpu()) - before);
        },
      ];
      for (let round = 0; round < ROUNDS; round++) {
        d = Math.max(d, await throughput(server.port, direction));
        // each round starts at another path: none is always measured first or last on a busy machine
        for (let i = 0; i < legs.length; i++) await legs[(round + i) % legs.length]();
      }
      const gb = (MB * 1024 * 1024) / 1e9;
      console.log(
        `  ${direction.padEnd(4)} direct ${d.toFixed(2)}  bare pipe() ${b.toFixed(2)}  via proxy ${p.toFixed(2)} (${((p / d) * 100).toFixed(0)} %)  faulted path ${f.toFixed(2)} (${((f / d) * 100).toFixed(0)} %)  via toxiproxy ${t.toFixed(2)} (${((t / p) * 100).toFixed(0)} % of the proxy)   (aim: ≥ 1 GB/s)`,
      );
      // wall-clock figures move with the load of a shared machine; CPU per GB does much less
      console.log(
        `       CPU: bare pipe() ${(pipeCpu / gb).toFixed(2)} s/GB  proxy ${(cpu / gb).toFixed(2)} s/GB (${(gb / cpu).toFixed(2)} GB/s per core)  faulted path ${(faultedCpu / gb).toFixed(2)} s/GB (${(gb / faultedCpu).toFixed(2)} GB/s per core)  toxiproxy ${(toxiCpu / gb).toFixed(2)} s/GB (${(gb / toxiCpu / (gb / cpu)).toFixed(2)}× the proxy per core)`,
      );
    }
  } finally {
    server.kill();
    proxy.kill();
    faulted.kill();
    pipe.kill();
    toxi.kill();
  }
}
