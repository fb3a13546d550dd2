/**
 * The API key (DESIGN §7): every route needs `X-API-Key` (or `Authorization:
 * Bearer <key>`, what Prometheus's scrape config sends, DESIGN §17) when a key is set.
 * The web console's static files come just before the check: they hold no
 * data, and they are the only paths answered without a key (DESIGN §11).
 */
import { UnauthorizedError } from '../errors.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware, PipelineSettings } from '../pipeline.js';

/** the key a request presents: `X-API-Key`, else the token of `Authorization: Bearer` */
export function presentedKey(headers: IncomingHttpHeaders): string | string[] | undefined {
  const key = headers['x-api-key'];
  if (key !== undefined) return key;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  return m ? m[1] : undefined;
}

/** serves the console's files when one is configured and the path is one of them */
export function consoleFiles(settings: PipelineSettings): Middleware {
  return (ex, next) => {
    if (settings.consoleFiles?.(ex.req, ex.res, ex.path)) return;
    return next(ex);
  };
}

/** 401 unless the key matches (constant-time, see shared/api-key.ts); no key configured lets all through */
export function requireKey(settings: PipelineSettings): Middleware {
  return (ex, next) => {
    if (settings.keyCheck && !settings.keyCheck(presentedKey(ex.req.headers))) throw new UnauthorizedError();
    return next(ex);
  };
}
