/**
 * The console's one door to the server: every call carries the API key as
 * the X-API-Key header (never in a URL), and every failure becomes an
 * ApiError holding the server's own `{error, code}` so the page can show it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export interface ApiReply<T> {
  status: number;
  body: T;
}

export interface Api {
  readonly key: string;
  get<T>(path: string): Promise<T>;
  /** JSON bodies are sent as JSON, strings as they are (scenario YAML) */
  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<ApiReply<T>>;
}

/** what the page says for a status, before the server's own message */
export function describeFailure(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  if (err.status === 0) return err.message;
  if (err.status === 401) return 'The server refused the API key (401). Enter the key `arena serve` was started with.';
  if (err.status === 409) return `Already running (409): ${err.message}`;
  return `${err.message} (${err.status} ${err.code})`;
}

export function createApi(key: string, onUnauthorized: () => void, fetchImpl: typeof fetch = fetch): Api {
  const headers = (extra: Record<string, string> = {}): Record<string, string> =>
    key ? { 'X-API-Key': key, ...extra } : extra;

  async function send<T>(
    method: string,
    path: string,
    body?: unknown,
    accept422 = false,
    signal?: AbortSignal,
  ): Promise<ApiReply<T>> {
    let res: Response;
    try {
      const init: RequestInit = { method, headers: headers(), cache: 'no-store', ...(signal ? { signal } : {}) };
      if (body !== undefined) {
        const isText = typeof body === 'string';
        init.headers = headers({ 'Content-Type': isText ? 'text/plain; charset=utf-8' : 'application/json' });
        init.body = isText ? body : JSON.stringify(body);
      }
      res = await fetchImpl(path, init);
    } catch {
      if (signal?.aborted) throw new ApiError(0, 'cancelled', 'Cancelled.');
      throw new ApiError(0, 'network', 'Cannot reach the arena server: the connection was lost.');
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // 422: the request was fine but the fault could not be applied; the body is the Result
    if (res.ok || (accept422 && res.status === 422)) return { status: res.status, body: parsed as T };
    if (res.status === 401) onUnauthorized();
    const err = parsed as { error?: unknown; code?: unknown; hint?: unknown } | undefined;
    const message =
      typeof err?.error === 'string'
        ? err.error + (typeof err.hint === 'string' ? ` (hint: ${err.hint})` : '')
        : `HTTP ${res.status}`;
    throw new ApiError(res.status, typeof err?.code === 'string' ? err.code : 'http_error', message, parsed);
  }

  return {
    key,
    async get<T>(path: string) {
      return (await send<T>('GET', path)).body;
    },
    post<T>(path: string, body?: unknown, signal?: AbortSignal) {
      return send<T>('POST', path, body, true, signal);
    },
  };
}
