/**
 * A loopback TCP relay whose connection can be cut on demand: `cut()` drops
 * every open connection and refuses new ones until `restore()`. The browser
 * tests put it between Chromium and `arena serve` to lose the event stream
 * the way a flaky network does. The relay is another origin to the server
 * (another port), so the server behind it must allow it (`--allowed-origin`).
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CutProxy {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** `upstreamPort` may be given later (a function read per connection): the relay's own URL is often needed to start the server behind it */
export async function startCutProxy(upstreamPort: number | (() => number)): Promise<CutProxy> {
  const portOf = typeof upstreamPort === 'number' ? () => upstreamPort : upstreamPort;
  const sockets = new Set<Socket>();
  let isDown = false;
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const server = createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connect(portOf(), '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      isDown = true;
      dropAll();
    },
    restore() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
