/**
 * The OpenTelemetry SDK, loaded here and only here, by `startTracing`: a
 * command without tracing (and `import 'chaos-arena'`) never loads it. One
 * tracer provider of our own, never registered as the global one (the arena
 * is often a library inside someone else's traced process), exporting in
 * batches over OTLP/HTTP. Export failures are counted, so a run can say its
 * traces did not arrive rather than pretend they did.
 */
import type * as OtelApi from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpConfig } from './config.js';

export type { OtlpConfig } from './config.js';

/** the OpenTelemetry API module (context and span helpers), as loaded */
export type OtelApiModule = typeof OtelApi;

export interface ExportFigures {
  exported: number;
  failed: number;
  /** the last export error, when one failed */
  lastError?: string;
}

export interface Tracing {
  readonly api: OtelApiModule;
  readonly tracer: OtelApi.Tracer;
  /** W3C trace context (`traceparent`, `tracestate`): read from and written to HTTP headers */
  readonly propagator: OtelApi.TextMapPropagator;
  readonly config: OtlpConfig;
  /** what went out so far */
  figures(): ExportFigures;
  /** exports what is still buffered and stops; waits at most `timeoutMs` (an unreachable collector cannot hold the exit) */
  shutdown(timeoutMs?: number): Promise<ExportFigures>;
}

/** how long an exit waits for the last spans to go out */
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;
/** one export request and its retries */
const EXPORT_TIMEOUT_MS = 4000;

export async function startTracing(config: OtlpConfig): Promise<Tracing> {
  const [api, core, sdk, resources, exporters] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    config.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const figures: ExportFigures = { exported: 0, failed: 0 };
  // an export (with its retries) gives up before an exit stops waiting for it: nothing outlives the command
  const otlp = new exporters.OTLPTraceExporter({
    url: config.url,
    headers: config.headers,
    timeoutMillis: EXPORT_TIMEOUT_MS,
  });
  /** spans handed to the exporter and not yet answered */
  let inFlight = 0;
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      inFlight += spans.length;
      otlp.export(spans, (result) => {
        inFlight -= spans.length;
        if (result.code === core.ExportResultCode.SUCCESS) figures.exported += spans.length;
        else {
          figures.failed += spans.length;
          figures.lastError = result.error?.message ?? 'export failed';
        }
        done(result);
      });
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': config.serviceName,
      'telemetry.sdk.language': 'nodejs',
    }),
    // a second between batches: a long run's spans show up while it goes on, not only at its end
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
  });
  let stopped: Promise<ExportFigures> | undefined;
  return {
    api,
    tracer: provider.getTracer('chaos-arena'),
    propagator: new core.W3CTraceContextPropagator(),
    config,
    figures: () => ({ ...figures }),
    shutdown(timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS) {
      stopped ??= new Promise<ExportFigures>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve({ ...figures });
        };
        const timer = setTimeout(() => {
          figures.failed += inFlight;
          figures.lastError ??= `the collector did not take the last spans within ${timeoutMs} ms`;
          done();
        }, timeoutMs);
        timer.unref();
        provider.shutdown().then(done, (err: unknown) => {
          figures.lastError = err instanceof Error ? err.message : String(err);
          done();
        });
      });
      return stopped;
    },
  };
}

/** one line for stderr after a traced command: where the spans went, or why they did not */
export function exportSummary(figures: ExportFigures, config: OtlpConfig): string {
  if (figures.failed === 0 && figures.lastError === undefined)
    return `arena: ${figures.exported} span(s) exported to ${config.url}`;
  return `arena: traces: ${figures.failed} span(s) not exported to ${config.url} (${figures.lastError ?? 'export failed'}); ${figures.exported} exported`;
}
