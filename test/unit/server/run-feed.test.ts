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
});
