import { describe, expect, it } from 'vitest';
import { parsePort } from '../../../src/shared/port.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('parsePort', () => {
  it('takes 0 (a free port) to 65535, written as digits, spaces around allowed', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort(' 8080 ')).toBe(8080);
    expect(parsePort(65535)).toBe(65535);
  });

  it('refuses anything else with a UsageError naming the flag and the value', () => {
    for (const bad of ['65536', '-1', '80.5', '1e3', '0x50', '', 'http', '999999']) {
      let caught: unknown;
      try {
        parsePort(bad, '--control');
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(UsageError);
      expect((caught as UsageError).code).toBe('invalid_port');
      expect((caught as UsageError).message).toBe(
        `--control must be an integer from 0 to 65535 (0 = a free port), got "${bad}"`,
      );
    }
  });
});
