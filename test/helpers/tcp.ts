/**
 * Real loopback TCP peers for the proxy tests: an echo server, a recording
 * server that stamps when bytes arrive (to measure one direction at a time),
 * and small client helpers. Everything started here is closed by closeAll().
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

const servers: Server[] = [];
const sockets = new Set<Socket>();

function track(socket: Socket): Socket {
  sockets.add(socket);
  socket.on('error', () => {});
  socket.on('close', () => sockets.delete(socket));
  return socket;
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

export async function startEcho(): Promise<number> {
  return listen(createServer({ allowHalfOpen: true }, (s) => track(s).pipe(s)));
}

export interface Arrival {
  at: number;
  bytes: number;
}

/** A server that records when data arrives on each connection and lets the test write back. */
export async function startRecorder(): Promise<{
  port: number;
  conns: Array<{ socket: Socket; arrivals: Arrival[]; total: () => number }>;
}> {
  const conns: Array<{ socket: Socket; arrivals: Arrival[]; total: () => number }> = [];
  const port = await listen(
    createServer((socket) => {
      track(socket);
      const arrivals: Arrival[] = [];
      socket.on('data', (chunk: Buffer) => arrivals.push({ at: performance.now(), bytes: chunk.length }));
      conns.push({ socket, arrivals, total: () => arrivals.reduce((n, a) => n + a.bytes, 0) });
    }),
  );
  return { port, conns };
}

export function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = track(connect({ port, host: '127.0.0.1', noDelay: true }));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** resolves with the error code a connect attempt ends in, or 'connected' */
export function dialOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = track(connect({ port, host: '127.0.0.1' }));
    socket.once('connect', () => resolve('connected'));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

/** opens a connection and resolves with how it ends (error code, or 'closed'), whether at connect or later */
export function dialEnding(port: number): Promise<string> {
  return ending(track(connect({ port, host: '127.0.0.1' })));
}

/** resolves with the next n bytes the socket reads */
export function readBytes(socket: Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    const onData = (chunk: Buffer) => {
      parts.push(chunk);
      got += chunk.length;
      if (got >= n) {
        cleanup();
        const all = Buffer.concat(parts);
        if (all.length > n) socket.unshift(all.subarray(n));
        resolve(all.subarray(0, n));
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`stream ended after ${got} of ${n} bytes`));
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
  });
}

/** true when the promise settles within ms (the promise keeps running either way) */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    promise.then(
      () => (clearTimeout(t), resolve(true)),
      () => (clearTimeout(t), resolve(true)),
    );
  });
}

/** resolves with the error code the socket ends in, or 'closed' for a clean close */
export function ending(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve('closed');
    let code = 'closed';
    socket.once('error', (err: NodeJS.ErrnoException) => (code = err.code ?? 'error'));
    socket.once('close', () => resolve(code));
    socket.resume();
  });
}

/** waits until cond() holds, polling every 5 ms, or fails after ms */
export async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** one round trip through an echo: ms */
export async function roundTrip(socket: Socket, payload = Buffer.from('ping')): Promise<number> {
  const start = performance.now();
  const reply = readBytes(socket, payload.length);
  socket.write(payload);
  const got = await reply;
  if (!got.equals(payload)) throw new Error('echo answered different bytes');
  return performance.now() - start;
}

export async function closeAll(): Promise<void> {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
}

/**
 * The fastest of a few round trips. "Fast" assertions use it: on a loaded
 * machine one trip can stall for 100 ms or more, while a fault makes every trip slow.
 */
export async function fastest(socket: Socket, trips = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < trips; i++) best = Math.min(best, await roundTrip(socket));
  return best;
}
