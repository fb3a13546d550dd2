/**
 * An action that ran and was recorded is answered 200/422 whatever happens
 * after: a fault listener (the `--otlp` tracer) that throws does not turn it
 * into a 500 (or, during a shutdown, a 503) for an action that is in the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ArenaService } from '../../../src/arena/service.js';
import { Injector } from '../../../src/arena/injector.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { ArenaHandler } from '../../../src/server/arena-handler.js';
import { Router } from '../../../src/server/router.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';
import { raw, serve } from './helpers.js';

let target: FakeTarget | undefined;
let handler: ArenaHandler | undefined;
afterEach(async () => {
  await handler?.close();
  await target?.stop();
});

describe('an action whose fault listener throws', () => {
  it('is still answered with its result, and is recorded', async () => {
    target = createFakeTarget();
    await target.start();
    const store = new MemoryEventStore();
    const service = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      observer: target.observer,
      eventStore: store,
    });
    handler = new ArenaHandler(service, {
      onFault: () => {
        throw new Error('the tracer broke');
      },
    });
    const s = await serve(new Router({ log: () => {} }).registerArenaEndpoints(handler));
    const r = await raw(s.url, 'POST', '/arena/actions', {
      body: JSON.stringify({ id: 'a1', type: 'slow_agent', target_id: 'agent-2', metadata: { duration: '50ms' } }),
    });
    expect(r.status, r.body).toBe(200);
    expect(r.json()).toMatchObject({ success: true, action: { id: 'a1' } });
    const events = await store.read('arena');
    expect(events.map((e) => (e.data as { action: { id: string } }).action.id)).toEqual(['a1']);
  });
});
