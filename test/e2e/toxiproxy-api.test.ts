/**
 * `arena toxiproxy` as a real process: the curl examples of Toxiproxy's README replayed byte for byte
 * (as curl sends them: `-d` is a form-encoded POST), its error codes and bodies, and its bind rules.
 * Toxiproxy's source is Shopify/toxiproxy at f48fd7f; the README examples are from 27d82a7~1 (the
 * README's "Curl Example" section, before the CLI replaced it).
 */
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ARENA_BIN, arena } from '../helpers/cli.js';
import { startListening, type Listening } from '../helpers/listening.js';
import { closeAll, dial, roundTrip, startEcho } from '../helpers/tcp.js';

let server: Listening | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
  blocker = undefined;
  await closeAll();
});

async function start(args: string[] = [], env: Record<string, string> = {}): Promise<string> {
  server = await startListening('node', [ARENA_BIN, 'toxiproxy', '--port', '0', ...args], {
    pattern: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    env,
  });
  return server.url;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** one request as curl sends it: `-d` posts with curl's form content type */
function curl(url: string, method: string, data?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          'user-agent': 'curl/8.5.0',
          accept: '*/*',
          ...(data === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('arena toxiproxy: Toxiproxy README curl examples and error bodies (e2e)', () => {
  it("replays the README's curl example: create 201, list, latency toxic 200 with its exact body, delete toxic 204, delete proxy 204", async () => {
    const echo = await startEcho();
    const api = await start();
    const listenPort = await freePort();
    const upstream = `localhost:${echo}`;

    const created = await curl(
      `${api}/proxies`,
      'POST',
      `{"name": "redis", "upstream": "${upstream}", "listen": "localhost:${listenPort}"}`,
    );
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.body).toBe(
      `{"name":"redis","listen":"127.0.0.1:${listenPort}","upstream":"${upstream}","enabled":true,"toxics":[]}`,
    );
    await roundTrip(await dial(listenPort));

    const listed = await curl(`${api}/proxies`, 'GET');
    expect(listed.status).toBe(200);
    expect(listed.body).toBe(
      `{"redis":{"name":"redis","listen":"127.0.0.1:${listenPort}","upstream":"${upstream}","enabled":true,"toxics":[]}}`,
    );

    const toxic = await curl(
      `${api}/proxies/redis/toxics`,
      'POST',
      '{"type":"latency", "attributes":{"latency":1000}}',
    );
    expect(toxic.status).toBe(200);
    // the README's body, to the byte (Content-Length: 122)
    expect(toxic.body).toBe(
      '{"attributes":{"latency":1000,"jitter":0},"name":"latency_downstream","type":"latency","stream":"downstream","toxicity":1}',
    );
    expect(toxic.headers['content-length']).toBe('122');
    expect(await roundTrip(await dial(listenPort))).toBeGreaterThanOrEqual(990);

    const removedToxic = await curl(`${api}/proxies/redis/toxics/latency_downstream`, 'DELETE');
    expect(removedToxic.status).toBe(204);
    expect(removedToxic.body).toBe('');

    const removed = await curl(`${api}/proxies/redis`, 'DELETE');
    expect(removed.status).toBe(204);
    const gone = await curl(`${api}/proxies/redis`, 'GET');
    expect(gone.status).toBe(404);
  });

  it("answers Toxiproxy's status codes and bodies for each error, and changes nothing", async () => {
    const echo = await startEcho();
    const api = await start();
    const create = (body: string) => curl(`${api}/proxies`, 'POST', body);
    expect((await create(`{"name":"a","listen":"127.0.0.1:0","upstream":"127.0.0.1:${echo}"}`)).status).toBe(201);

    // api.go:510 ErrProxyNotFound = newError("proxy not found", http.StatusNotFound)
    const unknown = await curl(`${api}/proxies/nope/toxics`, 'POST', '{"type":"latency"}');
    expect([unknown.status, JSON.parse(unknown.body)]).toEqual([404, { error: 'proxy not found', status: 404 }]);

    // api.go:511 ErrProxyAlreadyExists = newError("proxy already exists", http.StatusConflict)
    const duplicate = await create(`{"name":"a","listen":"127.0.0.1:0","upstream":"127.0.0.1:${echo}"}`);
    expect([duplicate.status, JSON.parse(duplicate.body)]).toEqual([
      409,
      { error: 'proxy already exists', status: 409 },
    ]);

    // api.go:509 ErrMissingField, joined with the field's name by ProxyCreate
    const missing = await create('{"name":"b"}');
    expect(JSON.parse(missing.body)).toEqual({ error: 'missing required field: upstream', status: 400 });

    // api.go:516 ErrInvalidToxicType = newError("invalid toxic type", http.StatusBadRequest); toxic_collection.go:111
    const badType = await curl(`${api}/proxies/a/toxics`, 'POST', '{"type":"lag"}');
    expect([badType.status, JSON.parse(badType.body)]).toEqual([400, { error: 'invalid toxic type', status: 400 }]);

    // api.go:512 ErrInvalidStream
    const badStream = await curl(`${api}/proxies/a/toxics`, 'POST', '{"type":"latency","stream":"sideways"}');
    expect(JSON.parse(badStream.body)).toEqual({
      error: 'stream was invalid, can be either upstream or downstream',
      status: 400,
    });

    // toxic_collection.go:127 joinError(err, ErrBadRequestBody): "bad request body: <why>", 400
    const badAttributes = await curl(
      `${api}/proxies/a/toxics`,
      'POST',
      '{"type":"latency","attributes":{"latency":"1s"}}',
    );
    expect(badAttributes.status).toBe(400);
    expect(JSON.parse(badAttributes.body)).toEqual({
      error: 'bad request body: attributes.latency: expected a whole number from 0 to 3600000',
      status: 400,
    });
    const badJson = await curl(`${api}/proxies/a/toxics`, 'POST', '{"type":');
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body).error).toMatch(/^bad request body: /);

    // api.go:517 ErrToxicAlreadyExists; api.go:518 ErrToxicNotFound
    expect((await curl(`${api}/proxies/a/toxics`, 'POST', '{"type":"latency"}')).status).toBe(200);
    const again = await curl(`${api}/proxies/a/toxics`, 'POST', '{"type":"latency"}');
    expect([again.status, JSON.parse(again.body)]).toEqual([409, { error: 'toxic already exists', status: 409 }]);
    const noToxic = await curl(`${api}/proxies/a/toxics/nope`, 'DELETE');
    expect([noToxic.status, JSON.parse(noToxic.body)]).toEqual([404, { error: 'toxic not found', status: 404 }]);

    // an address in use: proxy.go:113 net.Listen fails, api.go:525 turns the plain error into a 500 with err.Error()
    blocker = createServer();
    await new Promise<void>((r) => blocker!.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    const inUse = await create(`{"name":"c","listen":"127.0.0.1:${taken}","upstream":"127.0.0.1:${echo}"}`);
    expect([inUse.status, JSON.parse(inUse.body)]).toEqual([
      500,
      { error: `listen tcp 127.0.0.1:${taken}: bind: address already in use`, status: 500 },
    ]);

    // nothing above changed anything: one proxy, one toxic
    const all = JSON.parse((await curl(`${api}/proxies`, 'GET')).body) as Record<string, { toxics: unknown[] }>;
    expect(Object.keys(all)).toEqual(['a']);
    expect(all.a!.toxics).toHaveLength(1);

    // api.go:21 stopBrowsersMiddleware: a browser's user agent gets 403
    const browser = await curl(`${api}/proxies`, 'GET', undefined, { 'user-agent': 'Mozilla/5.0' });
    expect([browser.status, browser.body]).toEqual([403, 'User agent not allowed\n']);
  });

  it('serves populate with a config file at start, and /metrics counts the bytes each way', async () => {
    const echo = await startEcho();
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'arena-toxiproxy-'));
    const config = join(dir, 'toxiproxy.json');
    const listenPort = await freePort();
    await writeFile(
      config,
      JSON.stringify([{ name: 'web', listen: `127.0.0.1:${listenPort}`, upstream: `127.0.0.1:${echo}` }]),
    );
    const api = await start(['--config', config]);
    expect(server!.output()).toContain(`1 proxy from ${config}`);
    await roundTrip(await dial(listenPort), Buffer.from('hello'));
    const metrics = await curl(`${api}/metrics`, 'GET');
    expect(metrics.status).toBe(200);
    const labels = `listener="127.0.0.1:${listenPort}",proxy="web",upstream="127.0.0.1:${echo}"`;
    expect(metrics.body).toContain(`toxiproxy_proxy_received_bytes_total{direction="upstream",${labels}} 5`);
    expect(metrics.body).toContain(`toxiproxy_proxy_received_bytes_total{direction="downstream",${labels}} 5`);
    expect(metrics.body).toContain('arena_toxiproxy_connections_total{proxy="web"} 1');
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a non-loopback host without an API key (exit 2), and with one requires it on every route', async () => {
    const refused = await arena(['toxiproxy', '--host', '0.0.0.0', '--port', '0']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('refusing to bind 0.0.0.0 without an API key');

    const badConfig = await arena(['toxiproxy', '--port', '0', '--config', 'no/such/file.json']);
    expect(badConfig.exitCode).toBe(2);
    expect(badConfig.stderr).toContain('--config no/such/file.json: cannot read it');

    const api = await start([], { ARENA_API_KEY: 's3cret' });
    const without = await curl(`${api}/proxies`, 'GET');
    expect([without.status, JSON.parse(without.body)]).toEqual([
      401,
      { error: 'missing or invalid API key', status: 401 },
    ]);
    expect((await curl(`${api}/proxies`, 'GET', undefined, { 'x-api-key': 's3cret' })).status).toBe(200);
  });
});
