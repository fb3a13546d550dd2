/**
 * CORS and OPTIONS: reply headers for allowed origins, and the one answer to
 * an OPTIONS request. Browsers send no API key on a preflight, so an allowed
 * origin's preflight is answered without one; any other OPTIONS without a
 * valid key is a 401 that reveals nothing (not even which methods a path has).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UnauthorizedError } from '../errors.js';
import { sendJson } from '../../shared/http/respond.js';
import { NO_HEADERS, type Middleware, type PipelineSettings } from '../pipeline.js';

const CORS_ALLOWED_HEADERS = 'Content-Type, X-API-Key, Last-Event-ID';

/** the CORS headers for a reply to `req`, or `none` when its origin is not allowed */
function corsHeadersFor(
  req: IncomingMessage,
  origins: ReadonlySet<string> | undefined,
  none: Record<string, string>,
): Record<string, string> {
  if (!origins) return none;
  const origin = req.headers.origin;
  if (!origin || !origins.has(origin)) return none;
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'Content-Type' };
}

/** First in the chain: every answer after it, errors included, carries the CORS headers. */
export function corsHeaders(settings: PipelineSettings): Middleware {
  return (ex, next) => {
    ex.cors = corsHeadersFor(ex.req, settings.origins, NO_HEADERS);
    return next(ex);
  };
}

/** Answers OPTIONS: `allowed(path)` gives the methods a path has (none: no route). */
export function preflight(settings: PipelineSettings, allowed: (path: string) => string[]): Middleware {
  return (ex, next) => {
    if (ex.method !== 'OPTIONS') return next(ex);
    const isKeyValid = !settings.keyCheck || settings.keyCheck(ex.req.headers['x-api-key']);
    answerOptions(ex.req, ex.res, allowed(ex.path), ex.path, ex.cors, isKeyValid);
  };
}

function answerOptions(
  req: IncomingMessage,
  res: ServerResponse,
  allow: string[],
  path: string,
  cors: Record<string, string>,
  isKeyValid: boolean,
): void {
  const isPreflight = req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  if (isPreflight && !cors['Access-Control-Allow-Origin']) {
    return sendJson(res, 403, { error: `origin ${req.headers.origin} is not allowed`, code: 'origin_not_allowed' });
  }
  if (!isKeyValid && !isPreflight) throw new UnauthorizedError();
  if (allow.length === 0) return sendJson(res, 404, { error: `no route for ${path}`, code: 'not_found' }, cors);
  const allowHeader = [...allow, 'OPTIONS'].join(', ');
  if (isPreflight) {
    res.writeHead(204, {
      ...cors,
      Allow: allowHeader,
      'Access-Control-Allow-Methods': allowHeader,
      'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
    });
    return void res.end();
  }
  res.writeHead(204, { ...cors, Allow: allowHeader });
  res.end();
}
