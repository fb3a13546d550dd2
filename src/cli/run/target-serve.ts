/** `arena target serve`: start the target, serve it until Ctrl-C / SIGTERM, then revert every fault and stop it. */
import { checkBind } from '../../server/serve.js';
import { parsePort } from '../../shared/port.js';
import { randomSeed } from '../../shared/random.js';
import { keepAliveWhile } from '../../shared/keep-alive.js';
import type { CliContext } from '../context.js';
import { readSecret } from '../secrets.js';
import { chooseTarget } from './targets.js';

export interface TargetServeOptions {
  port: string;
  host: string;
  token?: string;
  tokenFile?: string;
  target?: string;
  strategy?: string;
  seed?: number;
}

export async function targetServeCommand(opts: TargetServeOptions, ctx: CliContext): Promise<void> {
  const port = parsePort(opts.port);
  const token = readSecret({
    value: opts.token,
    flag: '--token',
    file: opts.tokenFile,
    fileFlag: '--token-file',
    envName: 'ARENA_TARGET_TOKEN',
    env: ctx.env,
    cwd: ctx.cwd,
  });
  checkBind(opts.host, token);
  const choice = await chooseTarget(opts, ctx);
  const target = await choice.create(opts.seed ?? randomSeed());
  const { serveTargetProtocol } = await import('../../targets/protocol-server.js');
  await target.start();
  let served: import('../../targets/protocol-server.js').ServedTarget;
  try {
    served = await serveTargetProtocol(target, {
      port,
      host: opts.host,
      ...(token ? { token } : {}),
      onRevert: (id, reason, error) =>
        ctx.stderr.write(`arena: fault ${id} reverted (${reason})${error ? `: ${String(error)}` : ''}\n`),
    });
  } catch (err) {
    await target.stop().catch(() => undefined);
    throw err;
  }
  ctx.stdout.write(
    `arena: target ${target.name} (${target.kind}) served on ${served.url} (Arena Target Protocol v1, auth: ${token ? 'on, Bearer token required' : 'off'})\n`,
  );
  ctx.stdout.write('arena: press Ctrl-C to stop\n');
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  ctx.stderr.write('arena: stopping: reverting faults\n');
  // the target's timers are unref'd: hold the event loop open until it has stopped
  await keepAliveWhile(async () => {
    await served.close();
    await target.stop();
  });
  ctx.stdout.write('arena: stopped\n');
}
