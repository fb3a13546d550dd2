import { describe, expect, it } from 'vitest';
import { apiForPath, statusError, upstreamUnreachable } from '../../../../src/proxies/llm/wire-errors.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('LLM API error wire shapes', () => {
  it('OpenAI 429: retry-after, request limits with a duration reset, request id, the documented body', () => {
    const e = statusError('openai', 'rate_limit', 1.5, NOW);
    expect(e.status).toBe(429);
    expect(e.headers).toMatchObject({
      'content-type': 'application/json',
      'retry-after': '1.5',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1.5s',
    });
    expect(e.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect(JSON.parse(e.body)).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('Anthropic 429: retry-after, x-should-retry, request limits resetting at an RFC 3339 time, request_id in the body too', () => {
    const e = statusError('anthropic', 'rate_limit', 2, NOW);
    expect(e.headers).toMatchObject({
      'retry-after': '2',
      'x-should-retry': 'true',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T12:00:02Z',
    });
    const body = JSON.parse(e.body);
    expect(body).toEqual({
      type: 'error',
      error: { details: null, type: 'rate_limit_error', message: expect.any(String) },
      request_id: e.headers['request-id'],
    });
  });

  it.each([
    [
      'openai',
      'overloaded',
      503,
      {
        error: {
          message: 'The engine is currently overloaded, please try again later',
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    ],
    [
      'openai',
      'server_error',
      500,
      { error: { message: expect.any(String), type: 'server_error', param: null, code: null } },
    ],
    [
      'anthropic',
      'overloaded',
      529,
      {
        type: 'error',
        error: { details: null, type: 'overloaded_error', message: 'Overloaded' },
        request_id: expect.any(String),
      },
    ],
    [
      'anthropic',
      'server_error',
      500,
      {
        type: 'error',
        error: { details: null, type: 'api_error', message: 'Internal server error' },
        request_id: expect.any(String),
      },
    ],
  ] as const)('%s %s is %d with its body and no retry-after unless asked', (api, type, status, body) => {
    const e = statusError(api, type);
    expect(e.status).toBe(status);
    expect(JSON.parse(e.body)).toEqual(body);
    expect(e.headers['retry-after']).toBeUndefined();
    expect(statusError(api, type, 3).headers['retry-after']).toBe('3');
  });

  it("502 for a dead upstream in each API's shape", () => {
    expect(JSON.parse(upstreamUnreachable('openai', 'ECONNREFUSED').body).error).toMatchObject({
      type: 'server_error',
      code: 'upstream_unreachable',
    });
    expect(JSON.parse(upstreamUnreachable('anthropic', 'ECONNREFUSED').body)).toMatchObject({
      type: 'error',
      error: { type: 'api_error' },
    });
  });

  it('--api auto reads the format from the path', () => {
    expect(apiForPath('/v1/messages')).toBe('anthropic');
    expect(apiForPath('/v1/messages/count_tokens')).toBe('anthropic');
    expect(apiForPath('/proxy/v1/messages')).toBe('anthropic');
    expect(apiForPath('/v1/chat/completions')).toBe('openai');
    expect(apiForPath('/v1/responses')).toBe('openai');
    expect(apiForPath('/v1/embeddings')).toBe('openai');
  });
});
