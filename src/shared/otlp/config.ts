/**
 * Where traces go (OTLP over HTTP): `--otlp URL`, or the standard
 * OTEL_EXPORTER_OTLP_* variables the OpenTelemetry SDKs read. Resolved and
 * checked here, before anything runs, so a bad endpoint, header or protocol is
 * a usage error naming what was wrong, and no tracing is loaded at all when
 * none is asked for. Plain data: nothing here imports OpenTelemetry.
 */
import { UsageError } from '../errors.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpConfig {
  /** the full traces URL the exporter posts to (…/v1/traces) */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** the `service.name` resource attribute */
  serviceName: string;
}

const TRACES_PATH = 'v1/traces';

/**
 * The tracing configuration, or undefined when tracing is off. `flag` is the
 * `--otlp` value (a base endpoint like OTEL_EXPORTER_OTLP_ENDPOINT, or a full
 * …/v1/traces URL); it wins over the variables, which are read as the spec
 * says: the traces endpoint is used as is, the general one gets `v1/traces`
 * appended.
 */
export function resolveOtlpConfig(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  defaultServiceName: string,
): OtlpConfig | undefined {
  const set = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  let url: string;
  if (flag !== undefined) url = tracesUrl(flag, '--otlp', true);
  else {
    // the spec's off switches, honoured only when the variables (not a flag) turned tracing on
    if (set('OTEL_SDK_DISABLED')?.toLowerCase() === 'true' || set('OTEL_TRACES_EXPORTER') === 'none') return undefined;
    const traces = set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    const base = set('OTEL_EXPORTER_OTLP_ENDPOINT');
    if (traces !== undefined) url = tracesUrl(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', false);
    else if (base !== undefined) url = tracesUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT', true);
    else return undefined;
  }
  const protocolVar = set('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  return {
    url,
    protocol: parseProtocol(set(protocolVar), protocolVar),
    headers: {
      ...parseHeaders(set('OTEL_EXPORTER_OTLP_HEADERS'), 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...parseHeaders(set('OTEL_EXPORTER_OTLP_TRACES_HEADERS'), 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    serviceName: set('OTEL_SERVICE_NAME') ?? defaultServiceName,
  };
}

function tracesUrl(value: string, where: string, isBase: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where}: ${JSON.stringify(value)} is not a URL (expected e.g. http://127.0.0.1:4318)`, {
      code: 'invalid_otlp',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${where}: ${url.href} must be an http:// or https:// URL (OTLP over HTTP)`, {
      code: 'invalid_otlp',
      hint: 'gRPC is not supported: point it at the collector’s OTLP/HTTP port (4318 by default)',
    });
  // a base endpoint gets the signal's path; one that already names it (…/v1/traces) is kept as given
  if (isBase && !url.pathname.replace(/\/$/, '').endsWith(`/${TRACES_PATH}`))
    url.pathname = `${url.pathname.replace(/\/?$/, '/')}${TRACES_PATH}`;
  return url.href;
}

function parseProtocol(value: string | undefined, where: string): OtlpProtocol {
  if (value === undefined || value === 'http/protobuf') return 'http/protobuf';
  if (value === 'http/json') return 'http/json';
  throw new UsageError(`${where}: ${JSON.stringify(value)} is not supported (expected http/protobuf or http/json)`, {
    code: 'invalid_otlp',
    hint: value === 'grpc' ? 'gRPC is not supported: use OTLP/HTTP (port 4318 by default)' : undefined,
  });
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C baggage form the spec uses) */
function parseHeaders(value: string | undefined, where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined) return headers;
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? '' : pair.slice(0, eq).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`${where}: ${JSON.stringify(pair.trim())} is not a name=value pair`, {
        code: 'invalid_otlp',
        hint: 'e.g. OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer%20s3cret,x-team=chaos"',
      });
    let v: string;
    try {
      v = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      throw new UsageError(`${where}: the value of ${name} has a malformed %-escape`, { code: 'invalid_otlp' });
    }
    headers[name.toLowerCase()] = v;
  }
  return headers;
}
