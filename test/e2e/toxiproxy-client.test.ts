/**
 * `arena toxiproxy` as a real process, driven by the official toxiproxy-node-client, unchanged,
 * with real TCP traffic through the proxies it creates.
 */
import { Toxiproxy, type ICreateToxicBody } from 'toxiproxy-node-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startListening, type Listening } from '../helpers/listening.js';
import { ARENA_BIN } from '../helpers/cli.js';
import { closeAll, dial, dialOutcome, ending, fastest, roundTrip, startEcho } from '../helpers/tcp.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await closeAll();
});

async function start(args: string[] = []): Promise<Toxiproxy> {
  server = await startListening('node', [ARENA_BIN, 'toxiproxy', '--port', '0', ...args], {
    pattern: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  });
  return new Toxiproxy(server.url);
}

const portOf = (listen: string) => Number(listen.slice(listen.lastIndexOf(':') + 1));

describe('arena toxiproxy with toxiproxy-node-client (e2e)', () => {
  it('creates, populates, lists, gets, disables (refusing and closing connections), enables and deletes proxies', async () => {
    const echo = await startEcho();
    const toxiproxy = await start(['--seed', '1']);
    const proxy = await toxiproxy.createProxy({ name: 'echo', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` });
    expect(proxy.enabled).toBe(true);
    expect(proxy.listen).toMatch(/^127\.0\.0\.1:\d+$/);
    const port = portOf(proxy.listen);
    const client = await dial(port);
    await roundTrip(client);

    const populated = await toxiproxy.populate([
      { name: 'echo', listen: proxy.listen, upstream: `127.0.0.1:${echo}` },
      { name: 'other', listen: 'localhost:0', upstream: `127.0.0.1:${echo}`, enabled: false },
    ]);
    expect(Object.keys(populated).sort()).toEqual(['echo', 'other']);
    // the same listen and upstream: left as it is, its connection still open
    expect(populated.echo!.listen).toBe(proxy.listen);
    await roundTrip(client);
    expect(populated.other!.enabled).toBe(false);

    const all = await toxiproxy.getAll();
    expect(Object.keys(all)).toEqual(['echo', 'other']);
    expect((await toxiproxy.get('echo')).toJson()).toEqual({
      name: 'echo',
      listen: proxy.listen,
      upstream: `127.0.0.1:${echo}`,
      enabled: true,
    });

    const closed = ending(client);
    const disabled = await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
    expect(disabled.enabled).toBe(false);
    expect(await closed).toBe('closed');
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');

    const enabled = await disabled.update({ enabled: true, listen: proxy.listen, upstream: proxy.upstream });
    expect(enabled.enabled).toBe(true);
    expect(enabled.listen).toBe(proxy.listen);
    await roundTrip(await dial(port));

    await enabled.remove();
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');
    await expect(toxiproxy.get('echo')).rejects.toThrow('Request failed with status code 404');
  });

  it('adds, reads, updates and removes each toxic; reset removes them all and enables every proxy', async () => {
    const echo = await startEcho();
    const toxiproxy = await start();
    const proxy = await toxiproxy.createProxy({ name: 'db', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` });
    const bodies: Array<[string, Record<string, number>]> = [
      ['latency', { latency: 10, jitter: 1 }],
      ['bandwidth', { rate: 100 }],
      ['slow_close', { delay: 10 }],
      ['timeout', { timeout: 100 }],
      ['reset_peer', { timeout: 10 }],
      ['slicer', { average_size: 8, size_variation: 2, delay: 10 }],
      ['limit_data', { bytes: 1000 }],
    ];
    for (const [type, attributes] of bodies) {
      const added = await proxy.addToxic({ type, attributes } as unknown as ICreateToxicBody<unknown>);
      // Toxiproxy's defaults: downstream, toxicity 1, named <type>_<stream>
      expect(added.toJson()).toEqual({
        name: `${type}_downstream`,
        type,
        stream: 'downstream',
        toxicity: 1,
        attributes,
      });
      const read = await proxy.getToxic(`${type}_downstream`);
      expect(read.toJson()).toEqual(added.toJson());
      const updated = await read.update({ ...read.toJson(), toxicity: 0.5 } as ICreateToxicBody<unknown>);
      expect(updated.toxicity).toBe(0.5);
      expect(updated.attributes).toEqual(attributes);
    }
    const upstream = await proxy.addToxic({
      type: 'latency',
      stream: 'upstream',
      attributes: { latency: 5 },
    } as unknown as ICreateToxicBody<unknown>);
    expect(upstream.name).toBe('latency_upstream');
    expect(upstream.attributes).toEqual({ latency: 5, jitter: 0 });
    await (await proxy.getToxic('slicer_downstream')).remove();
    await expect(proxy.getToxic('slicer_downstream')).rejects.toThrow('status code 404');

    const listed = await (await fetch(`${server!.url}/proxies/db/toxics`)).json();
    // upstream toxics are listed first, as Toxiproxy's chains are
    expect((listed as Array<{ name: string }>).map((t) => t.name)).toEqual([
      'latency_upstream',
      'latency_downstream',
      'bandwidth_downstream',
      'slow_close_downstream',
      'timeout_downstream',
      'reset_peer_downstream',
      'limit_data_downstream',
    ]);

    await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
    await toxiproxy.reset();
    const after = await (await fetch(`${server!.url}/proxies/db`)).json();
    expect(after).toMatchObject({ enabled: true, toxics: [] });
    expect(await fastest(await dial(portOf(proxy.listen)))).toBeLessThan(1000);
    expect(await toxiproxy.getVersion()).toBe('{"version": "2.12.0+chaos-arena"}\n');
  });
});
