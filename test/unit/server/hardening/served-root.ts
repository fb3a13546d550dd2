/**
 * A bootstrapped root served in-process on 127.0.0.1:0, stopped after each
 * test, plus a snapshot of everything a request could change, so a test can
 * assert that a rejected request changed nothing.
 */
import { afterEach } from 'vitest';
import { bootstrap, type ArenaRoot } from '../../../../src/bootstrap/index.js';
import type { BootstrapConfig } from '../../../../src/bootstrap/types.js';
import { serveRoot, type RunningServer } from '../../../../src/server/serve.js';

const open: Array<{ root: ArenaRoot; server: RunningServer }> = [];

afterEach(async () => {
  for (const { root, server } of open.splice(0)) {
    await server.close();
    await root.stop();
  }
});

export interface Served {
  root: ArenaRoot;
  server: RunningServer;
  url: string;
  logs: string[];
}

export async function serveRootForTest(
  config: BootstrapConfig = {},
  options: { apiKey?: string } = {},
): Promise<Served> {
  const root = await bootstrap({ seed: 1, ...config });
  await root.start();
  const logs: string[] = [];
  const server = await serveRoot(root, { port: 0, log: (line) => logs.push(line), ...options });
  open.push({ root, server });
  return { root, server, url: server.url, logs };
}

/** what any route could change: arena results, active faults, runtime state and strategy, stored data */
export async function stateOf(root: ArenaRoot): Promise<string> {
  const x = root.services;
  return JSON.stringify({
    history: x.service.history().length,
    faults: (await x.target.runtime.activeFaults()).map((f) => f.id),
    running: root.runtime.isRunning,
    strategy: await root.runtime.strategy(),
    sessions: x.memory.listSessions().length,
    documents: x.retrieval.list().length,
    agents: x.assistants.list().length,
    workflows: x.workflows.list().length,
    survival: x.survival.isRunning,
    scenario: x.scenarios.isRunning,
  });
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function call(
  url: string,
  method: string,
  path: string,
  body?: string | object,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(url + path, init);
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
