/**
 * An OTLP/HTTP trace receiver in the test's process (port 0, loopback): it
 * keeps every export request and decodes the http/json ones (OTLP's JSON
 * encoding: hex trace and span ids, attribute values by type) into flat spans.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  events: Array<{ name: string; attributes: Record<string, string | number | boolean> }>;
  status: { code?: number; message?: string };
  resource: Record<string, string | number | boolean>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface OtlpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** every span of the http/json requests so far */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

function value(v: AnyValue | undefined): string | number | boolean {
  if (!v) return '';
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return JSON.stringify(v);
}

function attributes(
  list: Array<{ key: string; value: AnyValue }> | undefined,
): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));
}

const nanosToMs = (n: string | number) => Number(BigInt(n) / 1_000_000n);

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const isJson = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': isJson ? 'application/json' : 'application/x-protobuf' });
      res.end(isJson ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans() {
      const out: ReceivedSpan[] = [];
      for (const r of requests) {
        if (!r.contentType.includes('json')) continue;
        const doc = JSON.parse(r.body.toString('utf8')) as {
          resourceSpans: Array<{
            resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
            scopeSpans: Array<{ spans: Array<Record<string, unknown>> }>;
          }>;
        };
        for (const rs of doc.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              out.push({
                traceId: s.traceId as string,
                spanId: s.spanId as string,
                parentSpanId: (s.parentSpanId as string | undefined) ?? '',
                name: s.name as string,
                kind: s.kind as number,
                startMs: nanosToMs(s.startTimeUnixNano as string),
                endMs: nanosToMs(s.endTimeUnixNano as string),
                attributes: attributes(s.attributes as Array<{ key: string; value: AnyValue }>),
                events: ((s.events as Array<{ name: string; attributes?: [] }>) ?? []).map((e) => ({
                  name: e.name,
                  attributes: attributes(e.attributes),
                })),
                status: (s.status as { code?: number; message?: string }) ?? {},
                resource: attributes(rs.resource?.attributes),
              });
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
