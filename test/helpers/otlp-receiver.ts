/**
 * An OTLP/HTTP trace receiver in the test's process (port 0, loopback): it
 * keeps every export request and decodes both encodings into flat spans: the
 * http/json ones (OTLP's JSON encoding: hex trace and span ids, attribute
 * values by type), and the http/protobuf ones with the official
 * opentelemetry-proto definitions, as code generated from them by the
 * OpenTelemetry JS project (protobufjs). The exporter's own protobuf writer is
 * hand-written: decoding with the generated code is an independent check.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import otlpProto from '@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

export interface ReceivedSpan {
  /** how the export request carried it */
  encoding: 'json' | 'protobuf';
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
  /** every span of the requests so far, http/json and http/protobuf alike */
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

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
    scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
  }>;
}

/** opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest, as protobufjs generated it (its .d.ts types the root only) */
const ExportTraceServiceRequest = (
  otlpProto as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: {
            v1: {
              ExportTraceServiceRequest: {
                decode(bytes: Uint8Array): unknown;
                toObject(message: unknown, options: { longs: StringConstructor; arrays: boolean }): ExportRequest;
              };
            };
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** the protobuf body decoded into the JSON encoding's shape: ids as hex, 64-bit numbers as strings */
function decodeProtobuf(body: Buffer): ExportRequest {
  const doc = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
    longs: String,
    arrays: true,
  });
  const hex = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '');
  for (const rs of doc.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) {
        s.traceId = hex(s.traceId);
        s.spanId = hex(s.spanId);
        s.parentSpanId = hex(s.parentSpanId);
      }
  return doc;
}

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
        const encoding = r.contentType.includes('json') ? 'json' : 'protobuf';
        const doc: ExportRequest =
          encoding === 'json' ? (JSON.parse(r.body.toString('utf8')) as ExportRequest) : decodeProtobuf(r.body);
        for (const rs of doc.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              out.push({
                encoding,
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
