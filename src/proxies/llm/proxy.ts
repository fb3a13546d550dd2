/**
 * The LLM fault proxy (DESIGN §10.2): a streaming reverse proxy in front of
 * an OpenAI- or Anthropic-style API. With no fault active every request and
 * answer passes through chunk by chunk: status, headers and bytes untouched,
 * nothing buffered. An active `llm_failure` fault answers matching requests
 * the way the real API fails (status errors, a held request, a broken or
 * stalled stream), so the agent's own SDK retry logic is what gets tested.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenHttp } from '../../shared/http/listen.js';
import type { AppliedFault } from '../../protocol/fault-registry.js';
import type { FaultRequest } from '../../protocol/wire.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { UsageError, isArenaError } from '../../shared/errors.js';
import { createRandom, deriveRandom, randomSeed, type Random } from '../../shared/random.js';
import { CONTENT_FAULTS, STATUS_FAULTS } from '../../protocol/llm-faults.js';
import type { ContentFault } from './content-edit.js';
import { relaySlowly, requiredFieldsOf, sendRewritten } from './quiet-answers.js';
import { RateBuckets, requestTokens } from './rate-bucket.js';
import { ActiveFaults, type ActiveLlmFault, type RequestDecision } from './active-faults.js';
import { describeSpec, isStreamFault, parseLlmFault } from './fault-spec.js';
import { createModelSniffer } from './model-sniffer.js';
import { peekBody, peekModel, modelOf, type PeekedBody } from './request-body.js';
import { ProxyStats, retryAfterMs, type LlmProxyStats } from './stats.js';
import { createCallRecorder, type CallTrace, type TokenTotals } from './call-trace.js';
import { createCallLedger, type CallLedger, type CallLedgerReader } from '../../protocol/calls.js';
import { relayWithStreamFault } from './stream-faults.js';
import { createMarkerBook, type MarkerBook, type MarkerTravel } from '../../protocol/markers.js';
import { traceRequest } from './markers.js';
import { createUpstream, forwardHeaders, parseUpstream } from './upstream.js';
import type { Tracing } from '../../shared/otlp/tracing.js';
import { traceLlmCall, type LlmCallTrace } from './tracing.js';
import {
  apiForPath,
  statusError,
  upstreamUnreachable,
  type LlmApi,
  type StatusErrorType,
  type WireError,
} from './wire-errors.js';

export type LlmApiMode = LlmApi | 'auto';

export interface LlmProxyOptions {
  /** port to listen on; 0 picks a free one */
  listen: number;
  /** address to bind, loopback by default */
  host?: string;
  upstream: string | URL;
  /** the wire format of errors; `auto` picks it per request from the path (default) */
  api?: LlmApiMode;
  clock?: Clock;
  /** draws for `probability`; seeded so a run can be replayed */
  random?: Random;
  /** most bytes of a request body read to find its `model` (default 8 MiB); a larger body matches no model */
  maxPeekBytes?: number;
  /**
   * most bytes of request bodies read ahead at once, all requests together
   * (default 64 MiB): beyond it a body is left in the socket (the client is
   * slowed by TCP, not the proxy's memory), and a held request is still held
   */
  maxBufferedBytes?: number;
  /** requests from this `x-arena-client` are not taken as the clients' own traffic by lastRequest (a probe's) */
  probeClient?: string;
  /** where each call is recorded (DESIGN §14): a process target passes the one its proxies share; default a ledger of its own */
  ledger?: CallLedger;
  /** the agent whose proxy this is: named in each call it records */
  agent?: string;
  /**
   * where the markers of quiet faults are planted and looked for (DESIGN §13.3); shared with the
   * other proxies of a target and its workload, so a marker one planted is found by another
   */
  markers?: MarkerBook;
  /** OpenTelemetry tracing (started by the caller, who also shuts it down): a GenAI span per request */
  tracing?: Tracing;
}

export interface LlmFaultStats {
  id: string;
  fired: number;
  [option: string]: unknown;
}

export interface LlmProxy {
  readonly port: number;
  readonly url: string;
  readonly upstream: URL;
  readonly api: LlmApiMode;
  /** applies an `llm_failure` fault (a FaultApplier for createFaultRegistry); throws a ProtocolError saying why not */
  applyFault(request: FaultRequest): Promise<AppliedFault>;
  /** every call it relayed or answered, for `GET /v1/calls` and trials */
  readonly calls: CallLedgerReader;
  stats(): LlmProxyStats & {
    faults: LlmFaultStats[];
    /** tokens the upstream's answers reported in their `usage`, all clients together */
    tokens: TokenTotals;
    /** request body bytes read ahead and held now (bounded by maxBufferedBytes) */
    buffered_bytes: number;
    /** per fault, the markers its changes planted and how far they travelled (DESIGN §13.3) */
    markers: MarkerTravel[];
  };
  /** the path and model of the last POST a client (not the probe) sent: what a recovery probe should ask for */
  lastRequest(): { path: string; model?: string } | undefined;
  close(): Promise<void>;
}

/** one request on its way through the proxy */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  client: string;
  api: LlmApi;
  pathname: string;
  /** the body's `model`, when a fault needed to read it */
  model?: string;
  /** its CallRecord in the making */
  trace: CallTrace;
  /** its span, when tracing is on */
  span?: LlmCallTrace | undefined;
}

/** a streamed answer passing through untouched: a stream fault applied later can still take it over */
interface LiveStream {
  call: Call;
  upRes: IncomingMessage;
}

const DEFAULT_PEEK = 8 * 1024 * 1024;
const DEFAULT_BUFFERED = 64 * 1024 * 1024;
const NO_DECISION: RequestDecision = { streamCandidates: [] };

export async function startLlmProxy(options: LlmProxyOptions): Promise<LlmProxy> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? createRandom(randomSeed());
  const mode: LlmApiMode = options.api ?? 'auto';
  if (mode !== 'auto' && mode !== 'openai' && mode !== 'anthropic')
    throw new UsageError(`--api: expected openai, anthropic or auto, got ${JSON.stringify(mode)}`, {
      code: 'invalid_api',
    });
  const upstreamUrl = parseUpstream(options.upstream);
  const upstream = createUpstream(upstreamUrl);
  const maxPeek = options.maxPeekBytes ?? DEFAULT_PEEK;
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_BUFFERED;
  // bytes of request bodies read ahead and not yet let go: 60 held requests of 8 MiB took 555 MB without a cap
  let buffered = 0;
  const peekLimit = () => Math.max(0, Math.min(maxPeek, maxBuffered - buffered));
  /** what was read ahead counts against maxBufferedBytes until the client's exchange closes */
  const account = (res: ServerResponse, body: PeekedBody) => {
    if (res.closed) return;
    let size = 0;
    for (const chunk of body.chunks) size += chunk.length;
    buffered += size;
    res.once('close', () => (buffered -= size));
  };
  const peek = async (req: IncomingMessage, res: ServerResponse): Promise<PeekedBody> => {
    const body = await peekBody(req, peekLimit());
    account(res, body);
    return body;
  };
  const faults = new ActiveFaults(random);
  const buckets = new WeakMap<ActiveLlmFault, RateBuckets>();
  const stats = new ProxyStats();
  const ledger = options.ledger ?? createCallLedger();
  // answers kept whole to read their usage (JSON, compressed) share the read-ahead budget's size, apart from it
  const recorder = createCallRecorder({
    ledger,
    clock,
    budget: { used: 0, max: maxBuffered },
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  });
  const markers = options.markers ?? createMarkerBook();
  let isClosing = false;

  const apiOf = (pathname: string): LlmApi => (mode === 'auto' ? apiForPath(pathname) : mode);

  const sendWire = (res: ServerResponse, wire: WireError) => {
    res.writeHead(wire.status, { ...wire.headers, 'content-length': Buffer.byteLength(wire.body) });
    res.end(wire.body);
  };

  const liveStreams = new Set<LiveStream>();

  /** a stream fault takes over a streamed answer: from here on its events are counted to the cut */
  const faultStream = (call: Call, upRes: IncomingMessage, fault: ActiveLlmFault) => {
    const type = fault.spec.errorType;
    relayWithStreamFault(upRes, call.res, call.api, fault, {
      onCut: () => {
        call.trace.faulted();
        if (type === 'stream_error') call.trace.broken();
        stats.onInjected(call.client, type, clock.now());
      },
      onNotReached: () => {
        faults.unfire(fault);
        stats.onPassed(call.client);
      },
      onStall: (delta) => (stats.stalled += delta),
      onGaveUp: () => stats.onGaveUp(call.client, clock.now()),
    });
  };

  /** forwards the request and relays the answer; `body` is what was already read of the request */
  const pass = (call: Call, body: PeekedBody | undefined, candidates: ActiveLlmFault[], acting?: ActiveLlmFault) => {
    const { req, res, client, api } = call;
    const type = acting?.spec.errorType;
    const notApplicable = () => {
      faults.notApplicable(acting!);
      stats.onNotApplicable(client, type!);
    };
    let set: Record<string, string> | undefined;
    if (type === 'model_swap') {
      const swapped = body?.isComplete ? swapModel(body.chunks, acting!.spec.toModel!) : undefined;
      if (swapped) {
        body = { chunks: [swapped], isComplete: true };
        set = { 'content-length': String(swapped.length) };
        call.trace.faulted();
        stats.onChanged(client, type);
      } else notApplicable();
    }
    // the answer is rewritten: it must come as text the proxy can read
    if (type !== undefined && CONTENT_FAULTS.has(type)) set = { 'accept-encoding': 'identity' };
    // which acted answer of this fault this is: the same seed changes the same answers the same way, in any
    // run (not the fault's id, which a scenario draws afresh each run)
    const draw = acting ? deriveRandom(random.seed, `mutate:${acting.spec.errorType}:${acting.fired}`) : undefined;
    const upReq = upstream.request(req, set);
    let isAnswered = false;
    upReq.on('response', (upRes) => {
      isAnswered = true;
      call.trace.answer(upRes);
      if (type === 'slow_first_token') {
        call.trace.faulted();
        stats.onChanged(client, type);
        upRes.pause();
        const timer = setTimeout(() => answer(upRes), acting!.spec.delayMs);
        res.once('close', () => clearTimeout(timer));
        return;
      }
      answer(upRes);
    });
    const answer = (upRes: IncomingMessage) => {
      if (res.destroyed) return upRes.destroy();
      const status = upRes.statusCode ?? 502;
      const isStreamAnswer = status === 200 && isEventStream(upRes.headers['content-type']);
      if (type !== undefined && CONTENT_FAULTS.has(type)) {
        const encoding = upRes.headers['content-encoding'];
        const isReadable =
          status === 200 &&
          (isStreamAnswer || isJson(upRes.headers['content-type'])) &&
          (!encoding || encoding === 'identity');
        if (isReadable) {
          const changed: string[] = [];
          return sendRewritten(upRes, res, type as ContentFault, {
            api,
            isStream: isStreamAnswer,
            maxBytes: maxPeek,
            ctx: {
              keep: acting!.spec.keep,
              random: draw!,
              api,
              requiredFields: requiredFieldsOf(body?.isComplete ? body.chunks : undefined),
              changed,
            },
            onDone: (isChanged) => {
              stats.onPassed(client);
              if (isChanged) {
                call.trace.faulted();
                stats.onChanged(client, type);
                for (const value of changed) markers.add(acting!.id, value, 'value', 'llm');
              } else notApplicable();
            },
          });
        }
        notApplicable();
      } else if (type === 'slow_stream') {
        if (isStreamAnswer) {
          call.trace.faulted();
          stats.onPassed(client);
          stats.onChanged(client, type);
          return relaySlowly(upRes, res, acting!.spec.chunkDelayMs);
        }
        notApplicable();
      }
      res.sendDate = false; // the upstream's own Date header passes through instead
      res.writeHead(status, upRes.statusMessage, forwardHeaders(upRes.rawHeaders));
      const isStream = status === 200 && isEventStream(upRes.headers['content-type']);
      const fault = isStream && candidates.length > 0 ? faults.decideStream(candidates) : undefined;
      if (fault) {
        call.span?.fault(fault.spec.errorType);
        return faultStream(call, upRes, fault);
      }
      stats.onPassed(client);
      // a real 429 / 5xx from the upstream: its retry is watched like an injected one
      if (status === 429 || status >= 500)
        stats.onUpstreamError(
          client,
          clock.now(),
          retryAfterMs(upRes.headers['retry-after'], clock.wallNow().getTime()),
        );
      relay(upRes, res);
      if (isStream) {
        const live: LiveStream = { call, upRes };
        liveStreams.add(live);
        res.once('close', () => liveStreams.delete(live));
      }
    };
    upReq.on('error', (err: NodeJS.ErrnoException) => {
      if (isAnswered || res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      stats.onUpstreamFailure(client, clock.now());
      req.resume();
      sendWire(res, upstreamUnreachable(api, err.code ?? err.message));
    });
    // the client left: the upstream call is dropped too (no orphaned generation)
    res.once('close', () => {
      if (!res.writableFinished) upReq.destroy();
    });
    req.once('error', () => upReq.destroy());
    if (!body) {
      req.pipe(upReq);
      return;
    }
    for (const chunk of body.chunks) upReq.write(chunk);
    if (body.isComplete) upReq.end();
    else req.pipe(upReq);
  };

  const injectStatus = ({ req, res, client, api, trace }: Call, fault: ActiveLlmFault) => {
    const { errorType, retryAfterS } = fault.spec;
    trace.faulted();
    // the rest of the body is read and dropped so the client's keep-alive connection stays usable
    req.resume();
    // stamped before the answer is written: a proxy descheduled right after the write would otherwise
    // stamp late and call a retry that waited the full retry-after early (84 of 100 ms on a loaded run)
    const answeredAt = clock.now();
    sendWire(res, statusError(api, errorType as StatusErrorType, retryAfterS, clock.wallNow().getTime()));
    stats.onInjected(client, errorType, answeredAt, retryAfterS === undefined ? undefined : retryAfterS * 1000);
  };

  /** `rate_limit_storm`: the client's bucket decides; an empty one answers 429, a full one passes */
  const storm = (call: Call, fault: ActiveLlmFault, body: PeekedBody | undefined) => {
    let bucket = buckets.get(fault);
    if (!bucket) {
      const limits = {
        ...(fault.spec.requestsPerMin !== undefined ? { requestsPerMin: fault.spec.requestsPerMin } : {}),
        ...(fault.spec.tokensPerMin !== undefined ? { tokensPerMin: fault.spec.tokensPerMin } : {}),
      };
      bucket = new RateBuckets(limits);
      buckets.set(fault, bucket);
    }
    const bytes = body?.chunks.reduce((n, c) => n + c.length, 0) ?? Number(call.req.headers['content-length'] ?? 0);
    const cost = requestTokens(bytes, body?.isComplete ? maxTokensOf(body.chunks) : undefined);
    const at = clock.now();
    const refused = bucket.take(call.client, cost, at, call.api, clock.wallNow().getTime());
    if (!refused) {
      // a request the bucket let through is not one the fault acted on
      faults.unfire(fault);
      return pass(call, body, []);
    }
    call.req.resume();
    call.trace.faulted();
    call.span?.fault('rate_limit_storm');
    sendWire(call.res, refused);
    stats.onInjected(call.client, 'rate_limit_storm', at, Number(refused.headers['retry-after']) * 1000);
  };

  /**
   * `timeout`: no status, no headers. The request waits until the client
   * gives up (its SDK timeout fires) or the fault ends; then it goes to the
   * upstream as if the API had been slow, and the answer passes through.
   */
  const hold = async (call: Call, fault: ActiveLlmFault, peeked: PeekedBody | undefined) => {
    const { req, res, client } = call;
    call.trace.faulted();
    stats.onInjected(client, 'timeout', clock.now());
    stats.held++;
    // reading the body keeps the socket read, so a client that hangs up is noticed
    const body = peeked ?? (await peek(req, res));
    const release = () => {
      stats.held--;
      if (isClosing || res.destroyed) return;
      pass(call, body, []);
    };
    if (res.destroyed || !fault.isActive) {
      release();
      if (res.destroyed) stats.onGaveUp(client, clock.now());
      return;
    }
    fault.waiting.add(release);
    res.once('close', () => {
      if (!fault.waiting.delete(release)) return;
      stats.held--;
      stats.onGaveUp(client, clock.now());
    });
  };

  let last: { path: string; model?: string } | undefined;
  /** a call of the arena's own recovery probe, not of the agents */
  const isProbeCall = (req: IncomingMessage) =>
    options.probeClient !== undefined && req.headers['x-arena-client'] === options.probeClient;
  /**
   * watches the body stream past for its model; the request is never held for it. `isSniffed`
   * false: the caller reads the model itself (peekModel) and sets it
   */
  const noteRequest = (req: IncomingMessage, path: string, isSniffed: boolean): { model?: string } | undefined => {
    if (req.method !== 'POST' || isProbeCall(req)) return undefined;
    const seen: { path: string; model?: string } = { path };
    last = seen;
    if (!isSniffed) return seen;
    const sniffer = createModelSniffer();
    const onData = (chunk: Buffer) => {
      sniffer.push(chunk);
      if (sniffer.model !== undefined) seen.model = sniffer.model;
      if (sniffer.isDone) req.off('data', onData);
    };
    req.on('data', onData);
    return seen;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const client = stats.clientOf(req);
    stats.onRequest(client, clock.now(), req.headers['x-stainless-retry-count']);
    const pathname = pathOf(req.url);
    // a traced request is read ahead for its model (gen_ai.request.model), as a fault that reads the request is
    const isTraced = options.tracing !== undefined && !isProbeCall(req);
    const readsWhole = faults.needsBody || markers.isTracking || isTraced;
    // only a `match.model` to decide: the body is read until its model is known, and no further
    const readsModel = !readsWhole && faults.needsModel && req.method === 'POST';
    const seen = noteRequest(req, pathname, !readsModel);
    // the model the request asked for, as the sniffer saw it: what a call that got no answer is recorded under
    const trace = recorder.trace(req, res, () => seen?.model);
    const call: Call = { req, res, client, api: apiOf(pathname), pathname, trace };
    // the arena's own recovery probes are not the agents' calls: no trace of their own every poll
    if (isTraced) call.span = traceLlmCall(options.tracing!, req, res, { ...call, upstream: upstreamUrl });
    if (faults.isEmpty && !readsWhole) return pass(call, undefined, []);
    if (readsModel) {
      // decided from the chunk that carries the model, synchronously, so the rest is piped on unread
      return peekModel(req, peekLimit(), (body) => {
        // called from a 'data' event: a throw here would take the whole proxy down
        try {
          account(res, body);
          if (body.model !== undefined) {
            call.model = body.model;
            // a probe's call is not noted (seen is undefined)
            if (seen) seen.model = body.model;
            trace.requested(body.model);
          }
          route(call, body);
        } catch {
          failed(req, res);
        }
      });
    }
    let body: PeekedBody | undefined;
    if (readsWhole) {
      body = await peek(req, res);
      const model = body.isComplete ? modelOf(body.chunks) : undefined;
      if (model !== undefined) {
        call.model = model;
        trace.requested(model);
      }
      call.span?.requestModel(model);
      if (markers.isTracking && body.isComplete) traceRequest(markers, body.chunks);
    }
    route(call, body);
  };

  /** which fault, if any, acts on the request, once what it needs of the body is read */
  const route = (call: Call, body: PeekedBody | undefined) => {
    const decision = faults.isEmpty ? NO_DECISION : faults.decide(call.pathname, call.model);
    const fault = decision.fault;
    if (!fault) return pass(call, body, decision.streamCandidates);
    const type = fault.spec.errorType;
    // a storm's bucket decides per request (below)
    if (type !== 'rate_limit_storm') call.span?.fault(type);
    if (type === 'timeout') return hold(call, fault, body);
    if (STATUS_FAULTS.has(type)) return injectStatus(call, fault);
    if (type === 'rate_limit_storm') return storm(call, fault, body);
    return pass(call, body, [], fault);
  };

  /** the proxy itself failed on a request: an upstream-style error, or a cut answer once headers went out */
  const failed = (req: IncomingMessage, res: ServerResponse) => {
    if (!res.headersSent) sendWire(res, upstreamUnreachable(apiOf(pathOf(req.url)), 'proxy error'));
    else res.destroy();
  };

  // the arena's one HTTP listener: agents' SDKs send no Origin; a web page or a rebound DNS name is refused
  const listener = await listenHttp(
    (req, res) => {
      handle(req, res).catch(() => failed(req, res));
    },
    { port: options.listen, host: options.host ?? '127.0.0.1' },
  ).catch((err: unknown) => {
    throw isArenaError(err) && err.code === 'port_in_use'
      ? new UsageError(err.message, {
          code: 'port_in_use',
          hint: 'pick another with --listen, or --listen 0 for a free one',
          cause: err,
        })
      : err;
  });
  const { server, port } = listener;
  const host = options.host ?? '127.0.0.1';

  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    upstream: upstreamUrl,
    api: mode,
    calls: ledger,
    async applyFault(request) {
      const spec = parseLlmFault(request.type, request.params);
      const fault = faults.add(request.id, spec);
      const report: Record<string, unknown> = {
        ...describeSpec(spec),
        api: mode,
        upstream: upstreamUrl.href,
        acts_on: 'every client of this proxy',
      };
      if (isStreamFault(spec.errorType)) {
        report.acts_on_streams_only = true;
        // streams already flowing are in its reach too, not only those that start after it
        let taken = 0;
        for (const live of [...liveStreams]) {
          if (live.call.res.destroyed || !faults.takesOver(fault, live.call.pathname, live.call.model)) continue;
          liveStreams.delete(live);
          live.upRes.unpipe(live.call.res);
          faultStream(live.call, live.upRes, fault);
          taken++;
        }
        report.streams_in_flight_taken = taken;
      }
      return { report, revert: () => faults.remove(fault) };
    },
    stats() {
      return {
        ...stats.snapshot(),
        buffered_bytes: buffered,
        tokens: recorder.tokens(),
        markers: markers.travel(),
        faults: faults
          .list()
          .map((f) => ({ id: f.id, ...describeSpec(f.spec), fired: f.fired, not_applicable: f.notApplicable })),
      };
    },
    lastRequest() {
      return last ? { ...last } : undefined;
    },
    close() {
      isClosing = true;
      for (const fault of [...faults.list()]) faults.remove(fault);
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.close();
      });
    },
  };
}

/**
 * Upstream answer to client, chunk by chunk with backpressure. `pipe` rather
 * than `pipeline`: pipeline allocates an AbortController and end-of-stream
 * watchers per call, a measurable share of the proxy's cost per request;
 * the two failure paths are wired by hand instead (a broken upstream breaks
 * the client's answer; a client that leaves drops the upstream call, in pass).
 */
function relay(upRes: IncomingMessage, res: ServerResponse): void {
  upRes.once('error', () => res.destroy());
  upRes.pipe(res);
}

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.toLowerCase().includes('json') === true;
}

/** the body with its `model` replaced, or undefined when it is not a JSON object with a model */
function swapModel(chunks: Buffer[], to: string): Buffer | undefined {
  try {
    const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof json !== 'object' || json === null || typeof (json as { model?: unknown }).model !== 'string')
      return undefined;
    return Buffer.from(JSON.stringify({ ...json, model: to }));
  } catch {
    return undefined;
  }
}

function maxTokensOf(chunks: Buffer[]): number | undefined {
  try {
    const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const n = json.max_tokens ?? json.max_completion_tokens ?? json.max_output_tokens;
    return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

function isEventStream(contentType: string | undefined): boolean {
  return contentType?.toLowerCase().startsWith('text/event-stream') === true;
}
