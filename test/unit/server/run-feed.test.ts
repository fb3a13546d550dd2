import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRunFeed } from '../../../src/server/run-feed.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('startRunFeed', () => {
  it('a port already in use is a usage error naming the port (exit 2), not an unexpected error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const err = await startRunFeed({ port }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as Error).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('serves published events on the stream in order, and the latest of each name at /arena/run', async () => {
    const feed = await startRunFeed({ port: 0 });
    try {
      feed.publish('shrink.progress', { phase: 'search', candidates: 2, size: 6, runs: 2 });
      feed.publish('shrink.progress', { phase: 'search', candidates: 3, size: 4, runs: 6 });
      feed.publish('shrink.smaller', { size: 4, of: 6 });
      const run = (await (await fetch(`${feed.url}/arena/run`)).json()) as {
        published: Record<string, { candidates?: number; size: number }>;
      };
      expect(run.published['shrink.progress']).toMatchObject({ candidates: 3, size: 4 });
      expect(run.published['shrink.smaller']).toEqual({ size: 4, of: 6 });
      const controller = new AbortController();
      const res = await fetch(`${feed.url}/arena/stream`, {
        headers: { 'Last-Event-ID': '0' },
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      let text = '';
      while ((text.match(/^event: shrink\./gm) ?? []).length < 3)
        text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      expect([...text.matchAll(/^event: (shrink\..+)$/gm)].map((m) => m[1])).toEqual([
        'shrink.progress',
        'shrink.progress',
        'shrink.smaller',
      ]);
    } finally {
      await feed.close();
    }
  });
});
