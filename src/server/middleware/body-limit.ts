/**
 * Bodies over the limit (1 MiB by default, DESIGN §7): a declared
 * Content-Length over it is a 413 before the handler runs. Bodies without one
 * are counted while they stream in (ctx.body(), shared/json-body.ts).
 */
import { checkDeclaredLength } from '../../shared/json-body.js';
import type { Middleware } from '../pipeline.js';

export function bodyLimit(limit: number): Middleware {
  return (ex, next) => {
    checkDeclaredLength(ex.req, limit);
    return next(ex);
  };
}
