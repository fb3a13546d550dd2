/** `arena target check URL`: one line per conformance check, then `N passed, M failed`; exit 1 when any failed. */
import chalk from 'chalk';
import { GateFailedError, UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { readSecret } from '../secrets.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';

export interface TargetCheckOptions {
  token?: string;
  tokenFile?: string;
  json?: boolean;
  color?: boolean;
}

export async function targetCheckCommand(url: string, opts: TargetCheckOptions, ctx: CliContext): Promise<void> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`not an http:// or https:// URL: ${JSON.stringify(url)}`, { code: 'invalid_url' });
  const mode = resolveOutputMode({ json: opts.json, color: opts.color, tui: false }, ctx);
  applyColor(mode);
  const token = readSecret({
    value: opts.token,
    flag: '--token',
    file: opts.tokenFile,
    fileFlag: '--token-file',
    envName: 'ARENA_TARGET_TOKEN',
    env: ctx.env,
    cwd: ctx.cwd,
  });
  const { checkConformance } = await import('../../targets/remote/conformance.js');
  const results = await checkConformance({ url, ...(token ? { token } : {}) });
  const failed = results.filter((r) => !r.ok).length;
  const passed = results.length - failed;
  if (mode.kind === 'json') {
    ctx.stdout.write(`${JSON.stringify({ schema_version: 1, url, passed, failed, checks: results }, null, 2)}\n`);
  } else {
    for (const r of results)
      ctx.stdout.write(r.ok ? `${chalk.green('ok  ')} ${r.name}\n` : `${chalk.red('FAIL')} ${r.name}: ${r.detail}\n`);
    ctx.stdout.write(`${passed} passed, ${failed} failed\n`);
  }
  if (failed > 0) throw new GateFailedError('', { code: 'conformance_failed' });
}
