import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTargetText } from '../../../src/targets/file.js';
import type { ExpectSpec, RequestSpec } from '../../../src/targets/process/spec.js';
import { createRemoteTarget } from '../../../src/targets/remote/target.js';
import type { RemoteTargetSpec } from '../../../src/targets/remote/spec.js';
import { createTrialTasks } from '../../../src/targets/trial-tasks.js';
import type { TrialSpec } from '../../../src/targets/trial-spec.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** an agent that answers 42 to "17+25" and something else otherwise, and keeps the headers it got */
async function agent(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ answer: q === '17+25' ? 42 : 41 }));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function remoteSpec(url: string) {
  const { spec, problems } = checkTargetText(
    [
      'kind: remote',
      'name: r',
      `url: "${url}"`,
      'tasks:',
      `  - { id: sum, request: { url: "${url}/task?q=17%2B25" }, expect: { json: { path: "$.answer", equals: 42 } } }`,
      `  - { id: off, request: { url: "${url}/task?q=1" }, expect: { json: { path: "$.answer", equals: 42 } } }`,
      'side_effects: ["write_*"]',
    ].join('\n'),
  );
  expect(problems).toEqual([]);
  return spec as unknown as RemoteTargetSpec;
}

describe("a target file's tasks", () => {
  it('send the trial marks with the request and grade the answer by expect', async () => {
    const { url, seen } = await agent();
    const tasks = createTrialTasks(remoteSpec(url) as TrialSpec<RequestSpec, ExpectSpec>)!;
    const traceparent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    expect(await tasks.run('sum', { trial: 'r0.clean.sum', traceparent })).toEqual({ passed: true });
    expect(seen[0]).toMatchObject({ 'x-arena-trial': 'r0.clean.sum', traceparent });
    expect(await tasks.run('off', { trial: 'r0.clean.off', traceparent })).toEqual({
      passed: false,
      detail: '$.answer is 41, expected 42',
    });
    expect(tasks.sideEffects).toEqual(['write_*']);
  });

  it('tell each answer body to onAnswer before grading it (where a process target looks for markers)', async () => {
    const { url } = await agent();
    const bodies: string[] = [];
    const tasks = createTrialTasks(remoteSpec(url) as TrialSpec<RequestSpec, ExpectSpec>, {
      onAnswer: (body) => bodies.push(body),
    })!;
    const traceparent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    await tasks.run('sum', { trial: 'r0.clean.sum', traceparent });
    await tasks.run('off', { trial: 'r0.clean.off', traceparent });
    expect(bodies).toEqual(['{"answer":42}', '{"answer":41}']);
  });

  it('are offered by a remote target that lists them, and absent from one that does not', async () => {
    const { url } = await agent();
    expect(createRemoteTarget(remoteSpec(url)).trials?.tasks.map((t) => t.id)).toEqual(['sum', 'off']);
    expect(createRemoteTarget({ kind: 'remote', name: 'bare', url }).trials).toBeUndefined();
  });
});
