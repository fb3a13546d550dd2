/**
 * The hop to the real API: one keep-alive agent, the request's method, path
 * and headers as the client sent them (order, case and repeats kept), only
 * the hop-by-hop headers dropped and `Host` set to the upstream's, because
 * a TLS API routes on it.
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { UsageError } from '../../shared/errors.js';

/** RFC 9110 §7.6.1: meaningful for one connection only, never forwarded */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

export interface Upstream {
  readonly url: URL;
  /** `set` replaces those headers (lower-case names) in what the client sent */
  request(req: IncomingMessage, set?: Record<string, string>): ClientRequest;
  close(): void;
}

export function parseUpstream(value: string | URL): URL {
  let url: URL;
  try {
    url = typeof value === 'string' ? new URL(value) : value;
  } catch {
    throw new UsageError(
      `--upstream: ${JSON.stringify(String(value))} is not a URL (expected e.g. http://127.0.0.1:9000 or https://api.openai.com)`,
      { code: 'invalid_upstream' },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--upstream: ${url.href} must be an http:// or https:// URL`, { code: 'invalid_upstream' });
  if (url.search || url.hash)
    throw new UsageError(`--upstream: ${url.href} must not carry a query or fragment`, { code: 'invalid_upstream' });
  return url;
}

export function createUpstream(url: URL): Upstream {
  const isTls = url.protocol === 'https:';
  const agent = isTls ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const send = isTls ? https.request : http.request;
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (isTls ? 443 : 80) : Number(url.port);
  // an upstream with a path (`http://gateway/openai`) is a prefix in front of every request path
  const prefix = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return {
    url,
    request(req, set) {
      let headers = forwardHeaders(req.rawHeaders, url.host);
      if (set) {
        const kept: string[] = [];
        for (let i = 0; i < headers.length; i += 2)
          if (!(headers[i]!.toLowerCase() in set)) kept.push(headers[i]!, headers[i + 1]!);
        for (const [name, value] of Object.entries(set)) kept.push(name, value);
        headers = kept;
      }
      return send({
        agent,
        hostname,
        port,
        method: req.method,
        path: prefix + (req.url ?? '/'),
        // no timeout set: the client's own timeouts decide, the proxy never cuts a slow answer short
        headers,
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** raw header pairs without the hop-by-hop ones (and those the `Connection` header names); `Host` replaced */
export function forwardHeaders(raw: readonly string[], host?: string): string[] {
  const out: string[] = [];
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      named ??= new Set();
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named?.has(lower)) continue;
    if (host !== undefined && lower === 'host') {
      out.push(name, host);
      continue;
    }
    out.push(name, raw[i + 1]!);
  }
  return out;
}
