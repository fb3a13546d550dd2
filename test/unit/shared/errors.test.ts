import { describe, expect, it } from 'vitest';
import {
  ArenaError,
  CancelledError,
  ConflictError,
  isArenaError,
  NotFoundError,
  RuntimeError,
  UsageError,
} from '../../../src/shared/errors.js';

describe('typed errors', () => {
  it('take an options object: code, hint, cause, details', () => {
    const cause = new Error('ENOENT');
    const err = new UsageError('scenario.yaml: no such file', {
      code: 'file_not_found',
      hint: 'check the path',
      cause,
    });
    expect(err).toMatchObject({ code: 'file_not_found', hint: 'check the path', cause, exitCode: 2, status: 400 });
    expect(err.name).toBe('UsageError');
    expect(new RuntimeError('target died', { cause }).code).toBe('runtime_error');
    expect(new NotFoundError('no agent-9', { details: { id: 'agent-9' } })).toMatchObject({
      code: 'not_found',
      details: { id: 'agent-9' },
      status: 404,
    });
    expect(new ArenaError('custom', { code: 'x', exitCode: 1, status: 422 })).toMatchObject({
      exitCode: 1,
      status: 422,
    });
  });

  it('take a code and a hint in one options object; each class has its own default code', () => {
    expect(new ConflictError('busy', { code: 'survival_running', hint: 'stop it first' })).toMatchObject({
      code: 'survival_running',
      hint: 'stop it first',
      status: 409,
    });
    expect(new CancelledError().code).toBe('cancelled');
    expect(new ConflictError('busy').code).toBe('conflict');
  });

  it('are recognised by isArenaError across two copies of the module, where instanceof fails', async () => {
    // a second instance of the same module, as a program with two copies of the package has
    const secondCopy = '../../../src/shared/errors.js?second-copy';
    const other = (await import(/* @vite-ignore */ secondCopy)) as typeof import('../../../src/shared/errors.js');
    expect(other.UsageError).not.toBe(UsageError);
    const foreign = new other.UsageError('bad flag', { code: 'invalid_flags' });
    expect(foreign instanceof ArenaError).toBe(false);
    expect(isArenaError(foreign)).toBe(true);
    expect(isArenaError(foreign, 'invalid_flags')).toBe(true);
    expect(isArenaError(foreign, 'invalid_port')).toBe(false);
    expect(other.isArenaError(new UsageError('x'))).toBe(true);
  });

  it('recognise nothing else: plain errors, look-alikes with a code, non-objects', () => {
    for (const value of [new Error('x'), { code: 'invalid_input', exitCode: 2 }, 'invalid_input', null, undefined]) {
      expect(isArenaError(value)).toBe(false);
    }
  });
});
