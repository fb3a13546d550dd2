/**
 * Toxiproxy's addresses as Go writes them: `host:port`, `[v6]:port`, or
 * `:port` (every interface). `localhost` is bound as 127.0.0.1 and printed
 * so, as Go's resolver does.
 */
import { badBody } from './errors.js';

export interface ListenAddress {
  /** what node binds: `::` for every interface */
  host: string;
  port: number;
}

export function parseListen(text: string, field = 'listen'): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port > 65535)
    throw badBody(`${field}: expected HOST:PORT, [IPv6]:PORT or :PORT with a port from 0 to 65535, got "${text}"`);
  const host = match[1] ?? match[2]!;
  return { host: host === '' ? '::' : host.toLowerCase() === 'localhost' ? '127.0.0.1' : host, port };
}

/** `net.Addr.String()`: `127.0.0.1:8474`, `[::]:18080` */
export function formatAddress(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
