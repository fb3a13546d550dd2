/** What a route group registers its routes on: the Router's add/get/post/delete (a test may pass anything with these). */
import type { Method } from '../shared/http/route-table.js';
import type { RouteHandler } from './context.js';

export type { Method };

export interface Routes {
  add(method: Method, pattern: string, handler: RouteHandler): unknown;
  get(pattern: string, handler: RouteHandler): unknown;
  post(pattern: string, handler: RouteHandler): unknown;
  delete(pattern: string, handler: RouteHandler): unknown;
}
