/**
 * The route table: patterns such as `/api/v1/agents/{id}` compiled once into
 * segment lists. Static paths hit a Map; patterns with parameters are tried
 * by segment count. A path that matches with the wrong method reports the
 * methods it allows (405 + Allow). Shared by every HTTP listener of the
 * arena: the API server's router and the Arena Target Protocol's routes
 * (target serve, the proxies' control ports).
 */
import { UsageError } from '../errors.js';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

interface Segment {
  literal?: string;
  param?: string;
}

export interface RouteEntry<H> {
  method: Method;
  pattern: string;
  handler: H;
  segments: Segment[];
}

export type MatchResult<H> =
  | { kind: 'found'; route: RouteEntry<H>; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' };

/** shared by every static route: handlers read params, never write them */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class RouteTable<H> {
  private readonly exact = new Map<string, Map<string, RouteEntry<H>>>();
  private readonly dynamic = new Map<number, Array<Map<string, RouteEntry<H>>>>();
  private readonly dynamicPatterns = new Map<string, Map<string, RouteEntry<H>>>();
  readonly routes: RouteEntry<H>[] = [];

  add(method: Method, pattern: string, handler: H): void {
    if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
    const segments = compile(pattern);
    const entry: RouteEntry<H> = { method, pattern, handler, segments };
    const isStatic = segments.every((s) => s.literal !== undefined);
    let byMethod: Map<string, RouteEntry<H>> | undefined;
    if (isStatic) {
      byMethod = this.exact.get(pattern);
      if (!byMethod) this.exact.set(pattern, (byMethod = new Map()));
    } else {
      byMethod = this.dynamicPatterns.get(pattern);
      if (!byMethod) {
        this.dynamicPatterns.set(pattern, (byMethod = new Map()));
        const list = this.dynamic.get(segments.length) ?? [];
        list.push(byMethod);
        this.dynamic.set(segments.length, list);
      }
    }
    if (byMethod.has(method)) throw new Error(`route registered twice: ${method} ${pattern}`);
    byMethod.set(method, entry);
    this.routes.push(entry);
  }

  /** `path` is the raw (still %-encoded) path without the query string */
  match(method: string, path: string): MatchResult<H> {
    const lookup = method === 'HEAD' ? 'GET' : method;
    const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const exact = this.exact.get(normalized);
    if (exact) {
      const route = exact.get(lookup);
      if (route) return { kind: 'found', route, params: NO_PARAMS };
    }
    const allow = new Set<string>(exact ? exact.keys() : []);
    const raw = normalized.split('/').slice(1);
    // a malformed escape is a 400 wherever it is, even on a path no route matches
    const decoded = normalized.includes('%') ? raw.map(decodeSegment) : raw;
    const candidates = this.dynamic.get(raw.length);
    if (candidates) {
      for (const byMethod of candidates) {
        const first = byMethod.values().next().value as RouteEntry<H>;
        const params = bind(first.segments, decoded);
        if (!params) continue;
        const route = byMethod.get(lookup);
        if (route) return { kind: 'found', route, params };
        for (const m of byMethod.keys()) allow.add(m);
      }
    }
    if (allow.size > 0) return { kind: 'method', allow: [...allow].sort() };
    return { kind: 'none' };
  }

  /** the methods a path allows (for OPTIONS) */
  allowed(path: string): string[] {
    const result = this.match('\u0000', path);
    return result.kind === 'method' ? result.allow : [];
  }
}

function compile(pattern: string): Segment[] {
  const parts = pattern === '/' ? [''] : pattern.split('/').slice(1);
  return parts.map((part) => {
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part);
    return m ? { param: m[1] } : { literal: part };
  });
}

function bind(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return undefined;
    } else {
      if (part === '') return undefined;
      params[seg.param!] = part;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new UsageError(`malformed percent-escape in path segment "${segment}"`, { code: 'bad_path' });
  }
}
