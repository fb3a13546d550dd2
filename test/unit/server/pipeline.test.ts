import { describe, expect, it } from 'vitest';
import { compose, type Exchange, type Middleware } from '../../../src/server/pipeline.js';
import { errorBoundary } from '../../../src/server/middleware/errors.js';
import { ShutdownGate } from '../../../src/server/middleware/shutdown.js';
import { StreamRegistry } from '../../../src/server/stream-registry.js';
import { Router } from '../../../src/server/router.js';
import type { SseFrame, SseStream } from '../../../src/server/sse.js';
import { UsageError } from '../../../src/shared/errors.js';
import { raw, serve } from './helpers.js';

/** a response double that records what was written */
function fakeExchange(): Exchange & { written: { status?: number; headers?: Record<string, unknown>; body?: string } } {
  const written: { status?: number; headers?: Record<string, unknown>; body?: string } = {};
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
      this.headersSent = true;
      return this;
    },
    end(body?: string) {
      written.body = body;
    },
  };
  return {
    req: {} as never,
    res: res as never,
    method: 'GET',
    path: '/x',
    queryString: '',
    cors: { Vary: 'Origin' },
    route: undefined,
    params: {},
    written,
  };
}

describe('request pipeline', () => {
  it('runs the stages in order and stays synchronous when nothing awaits', () => {
    const seen: string[] = [];
    const stage =
      (name: string): Middleware =>
      (ex, next) => {
        seen.push(name);
        return next(ex);
      };
    const run = compose([stage('a'), stage('b'), stage('c')], () => void seen.push('end'));
    const step = run(fakeExchange());
    expect(seen).toEqual(['a', 'b', 'c', 'end']);
    // no promise: the answer goes out in the request's own tick
    expect(step).toBeUndefined();
  });

  it('a stage that answers ends the chain', () => {
    const seen: string[] = [];
    const run = compose(
      [() => void seen.push('answered'), () => void seen.push('never')],
      () => void seen.push('never'),
    );
    run(fakeExchange());
    expect(seen).toEqual(['answered']);
  });

  it('the error boundary maps sync and async throws to a problem body with the CORS headers', async () => {
    const boundary = errorBoundary(
      () => {},
      () => false,
    );
    const sync = fakeExchange();
    compose([boundary], () => {
      throw new UsageError('bad field x', { code: 'invalid_input' });
    })(sync);
    expect(sync.written.status).toBe(400);
    expect(JSON.parse(sync.written.body!)).toEqual({ error: 'bad field x', code: 'invalid_input' });
    expect(sync.written.headers?.Vary).toBe('Origin');

    const logs: string[] = [];
    const later = fakeExchange();
    await compose(
      [
        errorBoundary(
          (l) => logs.push(l),
          () => false,
        ),
      ],
      async () => {
        throw new Error('secret detail');
      },
    )(later);
    expect(later.written.status).toBe(500);
    expect(JSON.parse(later.written.body!)).toEqual({ error: 'internal server error', code: 'internal_error' });
    expect(logs.join('\n')).toContain('secret detail');
  });

  it('while closing, an unknown error in flight is a 503 and the gate waits for the request', async () => {
    const gate = new ShutdownGate();
    let finish!: () => void;
    const ex = fakeExchange();
    const pending = compose(
      [
        gate.track,
        errorBoundary(
          () => {},
          () => gate.isClosing,
        ),
      ],
      async () => {
        await new Promise<void>((resolve) => (finish = resolve));
        throw new Error('aborted by the shutdown');
      },
    )(ex);
    expect(pending).toBeInstanceOf(Promise);
    gate.close();
    expect(gate.signal.aborted).toBe(true);
    let isSettled = false;
    const settled = gate.settled().then(() => (isSettled = true));
    await Promise.resolve();
    expect(isSettled).toBe(false);
    finish();
    await settled;
    expect(ex.written.status).toBe(503);
    // and new requests are refused
    const late = fakeExchange();
    compose(
      [
        errorBoundary(
          () => {},
          () => gate.isClosing,
        ),
        gate.refuseWhileClosing,
      ],
      () => {},
    )(late);
    expect(late.written.status).toBe(503);
  });

  it('the stream registry ends every open stream with the final frame and forgets closed ones', () => {
    const registry = new StreamRegistry();
    const finals: SseFrame[] = [];
    const fakeStream = () => {
      const listeners: Array<() => void> = [];
      return {
        onClose: (l: () => void) => void listeners.push(l),
        close(final: SseFrame) {
          finals.push(final);
          for (const l of listeners) l();
        },
      } as unknown as SseStream;
    };
    const a = fakeStream();
    registry.add(a);
    registry.add(fakeStream());
    expect(registry.size).toBe(2);
    a.close({ data: 'early' });
    expect(registry.size).toBe(1);
    registry.closeAll({ event: 'shutdown', data: 'bye' });
    expect(finals).toEqual([{ data: 'early' }, { event: 'shutdown', data: 'bye' }]);
    expect(registry.size).toBe(0);
  });

  it('a 503 while closing still carries CORS headers, and an OPTIONS is refused too', async () => {
    const router = new Router({ log: () => {} }).withAllowedOrigins(['http://dash.local']);
    router.get('/things', () => ({ ok: true }));
    const s = await serve(router);
    await router.shutdown();
    const res = await raw(s.url, 'GET', '/things', { headers: { Origin: 'http://dash.local' } });
    expect(res.status).toBe(503);
    expect(res.headers['access-control-allow-origin']).toBe('http://dash.local');
    const pre = await raw(s.url, 'OPTIONS', '/things', {
      headers: { Origin: 'http://dash.local', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(503);
  });
});
