/** Where traces go: --otlp and the standard OTEL_EXPORTER_OTLP_* variables, read as the spec says. */
import { describe, expect, it } from 'vitest';
import { resolveOtlpConfig } from '../../../../src/shared/otlp/config.js';
import { isArenaError } from '../../../../src/shared/errors.js';

const resolve = (flag: string | undefined, env: Record<string, string> = {}) =>
  resolveOtlpConfig(flag, env, 'chaos-arena');

function usageError(fn: () => unknown): { message: string; exitCode: number } {
  try {
    fn();
  } catch (err) {
    if (isArenaError(err)) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('resolveOtlpConfig', () => {
  it('is off without the flag or the variables', () => {
    expect(resolve(undefined)).toBeUndefined();
    expect(resolve(undefined, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
  });

  it('a base endpoint gets /v1/traces (once); the traces endpoint is used as is; the flag wins', () => {
    expect(resolve('http://c:4318')!.url).toBe('http://c:4318/v1/traces');
    expect(resolve('http://c:4318/otlp/')!.url).toBe('http://c:4318/otlp/v1/traces');
    expect(resolve('http://c:4318/v1/traces')!.url).toBe('http://c:4318/v1/traces');
    expect(resolve(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c' })!.url).toBe('https://c/v1/traces');
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/custom' };
    expect(resolve(undefined, both)!.url).toBe('http://t/custom');
    expect(resolve('http://flag:1', both)!.url).toBe('http://flag:1/v1/traces');
  });

  it('reads the protocol, headers (traces ones win, values percent-decoded) and service name', () => {
    const config = resolve('http://c', {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20a, x-team=chaos',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20b',
      OTEL_SERVICE_NAME: 'checkout-chaos',
    });
    expect(config).toEqual({
      url: 'http://c/v1/traces',
      protocol: 'http/json',
      headers: { authorization: 'Bearer b', 'x-team': 'chaos' },
      serviceName: 'checkout-chaos',
    });
    expect(resolve('http://c')!.protocol).toBe('http/protobuf');
    expect(resolve('http://c')!.serviceName).toBe('chaos-arena');
  });

  it('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn the variables off, not the flag', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'true' };
    expect(resolve(undefined, env)).toBeUndefined();
    expect(
      resolve(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
    expect(resolve('http://flag', env)).toBeDefined();
  });

  it('refuses what it cannot send, naming where it came from (exit 2)', () => {
    const cases: Array<[() => unknown, string]> = [
      [() => resolve('not a url'), '--otlp: "not a url" is not a URL'],
      [() => resolve('grpc://c:4317'), '--otlp: grpc://c:4317 must be an http:// or https:// URL'],
      [
        () => resolve(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://x' }),
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ftp://x/ must be',
      ],
      [
        () => resolve('http://c', { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }),
        'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" is not supported',
      ],
      [
        () => resolve('http://c', { OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }),
        'OTEL_EXPORTER_OTLP_HEADERS: "novalue" is not a name=value pair',
      ],
      [
        () => resolve('http://c', { OTEL_EXPORTER_OTLP_HEADERS: 'a=%E0%A4%A' }),
        'OTEL_EXPORTER_OTLP_HEADERS: the value of a has a malformed %-escape',
      ],
    ];
    for (const [fn, message] of cases) {
      const err = usageError(fn);
      expect(err.message).toContain(message);
      expect(err.exitCode).toBe(2);
    }
  });
});
