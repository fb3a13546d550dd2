/** Turns a request spec from the target file into one HTTP call. */
import { httpCall, type OutboundAnswer as HttpAnswer } from '../../shared/http-call.js';
import type { RequestSpec } from './spec.js';

export function sendRequest(spec: RequestSpec, signal?: AbortSignal): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined = spec.body;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers['content-type'] ??= 'application/json';
  }
  return httpCall({
    method: spec.method,
    url: spec.url,
    headers,
    body,
    timeoutMs: spec.timeout,
    ...(signal ? { signal } : {}),
  });
}
