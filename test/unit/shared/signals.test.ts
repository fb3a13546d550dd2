import { describe, expect, it } from 'vitest';
import { linkSignals } from '../../../src/shared/signals.js';

describe('linkSignals', () => {
  it('aborts when either source does, with that source’s reason', () => {
    for (const which of [0, 1] as const) {
      const sources = [new AbortController(), new AbortController()];
      const linked = linkSignals(sources[0]!.signal, sources[1]!.signal);
      expect(linked.signal.aborted).toBe(false);
      const reason = new Error(`source ${which}`);
      sources[which]!.abort(reason);
      expect(linked.signal.aborted).toBe(true);
      expect(linked.signal.reason).toBe(reason);
      // the other source aborting later changes nothing
      sources[1 - which]!.abort(new Error('later'));
      expect(linked.signal.reason).toBe(reason);
    }
  });

  it('is an already aborted source itself', () => {
    const a = new AbortController();
    a.abort(new Error('before'));
    const b = new AbortController();
    expect(linkSignals(a.signal, b.signal).signal).toBe(a.signal);
    expect(linkSignals(b.signal, a.signal).signal).toBe(a.signal);
  });

  it('after dispose, neither source reaches it, and no listener is left on them', () => {
    const a = new AbortController();
    const b = new AbortController();
    const seen: string[] = [];
    const linked = linkSignals(a.signal, b.signal);
    linked.signal.addEventListener('abort', () => seen.push('linked'));
    linked.dispose();
    a.abort();
    b.abort();
    expect(linked.signal.aborted).toBe(false);
    expect(seen).toEqual([]);
  });

  it('many links on one long-lived signal leave no listener behind once disposed', () => {
    const loop = new AbortController();
    let listening = 0;
    const add = loop.signal.addEventListener.bind(loop.signal);
    const remove = loop.signal.removeEventListener.bind(loop.signal);
    loop.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listening++;
      return add(...args);
    }) as typeof add;
    loop.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listening--;
      return remove(...args);
    }) as typeof remove;
    for (let i = 0; i < 1000; i++) linkSignals(loop.signal, new AbortController().signal).dispose();
    expect(listening).toBe(0);
  });
});
