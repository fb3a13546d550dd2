/**
 * The Prometheus instant-query client a `prometheus:` stop condition uses, against a stand-in
 * server on loopback: the single number it answers, the bearer token from token_env, and every
 * answer that is not one number refused with the reason.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryPrometheus } from '../../../../src/arena/safety/sources.js';
import { parseStopWhen, type StopCondition } from '../../../../src/arena/safety/stop-when.js';

let server: http.Server;
let url = '';
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let seen: { path: string; auth?: string; custom?: string } | undefined;

beforeEach(async () => {
  server = http.createServer((req, res) => {
    seen = {
      path: req.url ?? '',
      ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
      ...(req.headers['x-scope'] ? { custom: String(req.headers['x-scope']) } : {}),
    };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prom`;
  seen = undefined;
});

afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

function condition(extra: Record<string, unknown> = {}) {
  return parseStopWhen({ prometheus: { url, query: 'sum(rate(errors[1m]))', above: 1, ...extra } })
    .conditions[0] as Extract<StopCondition, { kind: 'prometheus' }>;
}

const vector = (...values: string[]) => ({
  status: 'success',
  data: { resultType: 'vector', result: values.map((v) => ({ metric: {}, value: [1, v] })) },
});

describe('queryPrometheus', () => {
  it('asks GET {url}/api/v1/query with the query and answers the single sample', async () => {
    answer = { status: 200, body: vector('2.5') };
    expect(await queryPrometheus(condition(), {})).toBe(2.5);
    const asked = new URL(seen!.path, 'http://x');
    expect(asked.pathname).toBe('/prom/api/v1/query');
    expect(asked.searchParams.get('query')).toBe('sum(rate(errors[1m]))');
    answer = { status: 200, body: { status: 'success', data: { resultType: 'scalar', result: [1, '7'] } } };
    expect(await queryPrometheus(condition(), {})).toBe(7);
  });

  it('sends the bearer token named by token_env and the headers given', async () => {
    answer = { status: 200, body: vector('1') };
    await queryPrometheus(condition({ token_env: 'PROM_TOKEN', headers: { 'x-scope': 'team-a' } }), {
      PROM_TOKEN: 's3cret',
    });
    expect(seen).toMatchObject({ auth: 'Bearer s3cret', custom: 'team-a' });
    await expect(queryPrometheus(condition({ token_env: 'PROM_TOKEN' }), {})).rejects.toThrow(
      'token_env PROM_TOKEN is not set',
    );
  });

  it.each([
    [{ status: 200, body: vector() }, /matched no series/],
    [{ status: 200, body: vector('1', '2') }, /answered 2 series; aggregate them/],
    [{ status: 200, body: vector('NaN') }, /not a number/],
    [{ status: 400, body: { status: 'error', error: 'parse error at char 5' } }, /status 400: parse error at char 5/],
    [{ status: 200, body: '<html>' }, /not a Prometheus API answer/],
    [{ status: 200, body: { status: 'success', data: { resultType: 'matrix', result: [] } } }, /a matrix result/],
  ])('refuses an answer that is not one number: %j', async (a, message) => {
    answer = a;
    await expect(queryPrometheus(condition(), {})).rejects.toThrow(message);
  });
});
