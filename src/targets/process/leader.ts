/**
 * Who leads now, asked of the system itself: a JSON field of an HTTP answer,
 * or the first line a command prints. Throws with the reason when it cannot
 * tell, so a kill_leader never guesses.
 */
import { RuntimeError } from '../../shared/errors.js';
import { describeFailure, runCommand } from './command.js';
import { isMissing, jsonPathGet } from './expect.js';
import { httpCall } from '../../shared/http-call.js';
import type { LeaderSpec } from './spec.js';

const DEFAULT_TIMEOUT_MS = 1000;

export async function discoverLeader(
  spec: LeaderSpec,
  ctx: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const timeoutMs = spec.timeout ?? DEFAULT_TIMEOUT_MS;
  if ('http' in spec) {
    let answer: Awaited<ReturnType<typeof httpCall>>;
    try {
      answer = await httpCall({ url: spec.http, timeoutMs });
    } catch (err) {
      throw new RuntimeError(`leader discovery failed: ${(err as Error).message}`, { code: 'leader_unknown' });
    }
    if (answer.status < 200 || answer.status >= 300)
      throw new RuntimeError(`leader discovery failed: ${spec.http} answered ${answer.status}`, {
        code: 'leader_unknown',
      });
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      throw new RuntimeError(`leader discovery failed: ${spec.http} did not answer JSON`, { code: 'leader_unknown' });
    }
    const id = jsonPathGet(body, spec.json);
    if (isMissing(id) || id === null || id === '')
      throw new RuntimeError(`leader discovery: ${spec.http} names no leader at ${spec.json}`, {
        code: 'leader_unknown',
      });
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new RuntimeError(`leader discovery: ${spec.json} is ${JSON.stringify(id)}, not an agent id`, {
        code: 'leader_unknown',
      });
    return String(id);
  }
  const result = await runCommand({ command: spec.command, cwd: ctx.cwd, env: ctx.env, timeoutMs });
  if (result.code !== 0)
    throw new RuntimeError(`leader discovery command ${describeFailure(result, timeoutMs)}`, {
      code: 'leader_unknown',
    });
  const id = result.stdout.trim().split('\n')[0]?.trim() ?? '';
  if (id === '') throw new RuntimeError('leader discovery command printed no leader id', { code: 'leader_unknown' });
  return id;
}
