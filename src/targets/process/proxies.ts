/**
 * The TCP fault proxies a process target puts in front of its agents
 * (`proxy: { listen, upstream }`): started before the start command, so the
 * fleet connects through them from its first request, and closed (every
 * fault dropped) at the end. They live in the arena's process: if the arena
 * dies, they die with it and nothing is left faulted.
 */
import { ProtocolError } from '../../protocol/wire.js';
import { parseHostPort, startTcpProxy, type TcpProxy } from '../../proxies/tcp/index.js';
import type { Clock } from '../../shared/clock.js';
import { RuntimeError } from '../../shared/errors.js';
import type { Random } from '../../shared/random.js';
import type { AgentProxy } from './faults.js';
import type { AgentSpec } from './spec.js';

export interface RunningProxy extends AgentProxy {
  readonly port: number;
  close(): Promise<void>;
}

export async function startAgentProxies(agents: readonly AgentSpec[], options: { clock: Clock; random?: Random }): Promise<Map<string, RunningProxy>> {
  const running = new Map<string, RunningProxy>();
  try {
    for (const agent of agents) {
      if (!agent.proxy) continue;
      const upstream = parseHostPort(agent.proxy.upstream, `agents.${agent.id}.proxy.upstream`);
      const proxy: TcpProxy = await startTcpProxy({
        listen: { port: agent.proxy.listen },
        upstream,
        clock: options.clock,
        ...(options.random ? { random: options.random.fork(`proxy:${agent.id}`) } : {}),
      });
      running.set(agent.id, {
        port: proxy.port,
        async applyFault(request) {
          try {
            return proxy.applyFault(request);
          } catch (err) {
            if (err instanceof ProtocolError) throw new RuntimeError(`agent ${agent.id}'s proxy refused the fault: ${err.message}`, err.code);
            throw err;
          }
        },
        close: () => proxy.close(),
      });
    }
  } catch (err) {
    await Promise.all([...running.values()].map((p) => p.close().catch(() => {})));
    throw err;
  }
  return running;
}
