/**
 * Web pages cannot drive an arena listener (DESIGN §7). A browser sends
 * every cross-origin POST (fetch, form, no-cors) with an `Origin` header,
 * and a page that rebinds its own DNS name to 127.0.0.1 still sends that
 * name as `Host`. So every HTTP listener refuses, before any handler runs
 * and whether or not a key is set:
 *   - an `Origin` that is neither the listener's own (http://HOST:PORT for a
 *     HOST it answers to) nor one configured to call it;
 *   - a `Host` that is not a name it answers to with its own port.
 * It answers to loopback names (localhost, 127.x.x.x, ::1) and the address it
 * is bound to; bound to a wildcard (0.0.0.0, ::), also to any IP literal and
 * the machine's host name. An IP literal cannot be a rebinding: the page's
 * origin is then that IP, which the same-origin policy already keeps apart.
 * A configured origin (`arena serve --allowed-origin`) is also accepted as
 * `Host`, for a console reached through a mapped port or a reverse proxy.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ErrorBody } from './respond.js';

export interface OriginGuardOptions {
  /** the address the listener is bound to, as given (127.0.0.1, ::1, 0.0.0.0, a name) */
  host: string;
  /** the port it listens on */
  port: number;
  /** origins configured to call it; read on every request, so a later configuration counts */
  allowedOrigins?: () => ReadonlySet<string> | undefined;
  /** added to a refusal: how to allow a legitimate caller on this listener */
  hint?: string;
}

/** undefined: let the request through; otherwise the 403 body to answer with */
export type OriginGuard = (req: IncomingMessage) => ErrorBody | undefined;

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** `127.0.0.1`, `[::1]` → `::1`, `LocalHost.` → `localhost` */
function normalizeName(name: string): string {
  let h = name.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

export function isLoopbackName(name: string): boolean {
  const h = normalizeName(name);
  if (h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** A `Host` header as name and port (80 when none: these listeners speak plain http); undefined when malformed. */
export function parseHostHeader(value: string): { name: string; port: number } | undefined {
  let name: string;
  let portText: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    name = value.slice(0, end + 1);
    const rest = value.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return undefined;
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = value.indexOf(':');
    if (colon !== value.lastIndexOf(':')) return undefined;
    name = colon === -1 ? value : value.slice(0, colon);
    portText = colon === -1 ? undefined : value.slice(colon + 1);
  }
  if (name === '') return undefined;
  if (portText === undefined) return { name: normalizeName(name), port: 80 };
  if (!/^\d{1,5}$/.test(portText)) return undefined;
  return { name: normalizeName(name), port: Number(portText) };
}

/** the Host values (name:port) a configured origin stands for */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return `${normalizeName(url.hostname)}:${port}`;
  } catch {
    return undefined;
  }
}

export function createOriginGuard(options: OriginGuardOptions): OriginGuard {
  const bound = normalizeName(options.host);
  const isWildcard = WILDCARDS.has(bound);
  const machine = isWildcard ? normalizeName(hostname()) : undefined;
  const { port } = options;
  const allowedOrigins = options.allowedOrigins ?? (() => undefined);

  const isOwn = (name: string, p: number): boolean => {
    if (p !== port) return false;
    if (name === bound || isLoopbackName(name)) return true;
    return isWildcard && (isIP(name) !== 0 || name === machine);
  };
  const answersTo = (name: string, p: number): boolean => {
    if (isOwn(name, p)) return true;
    const origins = allowedOrigins();
    if (origins) for (const origin of origins) if (originHost(origin) === `${name}:${p}`) return true;
    return false;
  };
  const refuse = (error: string, code: string): ErrorBody =>
    options.hint ? { error, code, hint: options.hint } : { error, code };

  // Host values seen to be its own: the common request costs one Set lookup (a few, so bounded)
  const ownHosts = new Set<string>();
  const ownOrigins = new Set<string>();
  return (req) => {
    const host = req.headers.host;
    // no Host at all is an HTTP/1.0 tool, never a browser
    if (host !== undefined && !ownHosts.has(host)) {
      const parsed = parseHostHeader(host);
      if (parsed && ownHosts.size < 16 && isOwn(parsed.name, parsed.port)) ownHosts.add(host);
      else if (!parsed || !answersTo(parsed.name, parsed.port))
        return refuse(
          `Host ${JSON.stringify(host)} is not this listener's address (DNS rebinding guard): use 127.0.0.1:${port} or localhost:${port}`,
          'host_not_allowed',
        );
    }
    const origin = req.headers.origin;
    if (origin === undefined || ownOrigins.has(origin)) return undefined;
    if (allowedOrigins()?.has(origin)) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const isOwnOrigin =
      url !== undefined &&
      url.protocol === 'http:' &&
      isOwn(normalizeName(url.hostname), url.port === '' ? 80 : Number(url.port));
    if (isOwnOrigin) {
      if (ownOrigins.size < 16) ownOrigins.add(origin);
      return undefined;
    }
    return refuse(
      `origin ${origin} is not allowed: web pages from other origins cannot call this listener`,
      'origin_not_allowed',
    );
  };
}
