import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from '../../../src/events/open.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { UsageError } from '../../../src/shared/errors.js';

let dir = '';
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('openEventStore (--store memory|PATH)', () => {
  it('opens memory', async () => {
    const opened = openEventStore('memory');
    expect(opened.kind).toBe('memory');
    expect(opened.store).toBeInstanceOf(MemoryEventStore);
    await opened.store.append('s', [{ type: 'a', data: 1 }], 0);
    opened.close();
  });

  it('opens a SQLite file relative to cwd, and defaults to .arena/arena.db', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-open-'));
    const a = openEventStore('runs/x.db', { cwd: dir });
    expect(a.kind).toBe('sqlite');
    expect(a.store).toBeInstanceOf(SqliteEventStore);
    expect(a.location).toBe(join(dir, 'runs/x.db'));
    await a.store.append('s', [{ type: 'a', data: 1 }], 0);
    a.close();
    a.close();
    const b = openEventStore(undefined, { cwd: dir });
    expect(b.location).toBe(join(dir, '.arena/arena.db'));
    expect(existsSync(join(dir, '.arena/arena.db'))).toBe(true);
    b.close();
  });

  it('rejects a directory with a usage error', () => {
    expect(() => openEventStore('some/dir/')).toThrow(UsageError);
  });
});
