/**
 * `arena proxy llm`: the LLM fault proxy as a standalone command (DESIGN
 * §10.2). Declares the flags and hands them to run/run-proxy-llm.ts, loaded
 * only when this command runs.
 */
import { Option, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples, parseDurationOption, parseSeed } from './options.js';
import { LLM_ERROR_TYPES } from '../../protocol/llm-faults.js';
import { offerValues } from '../completion/tree.js';
// a type only: the run module itself is loaded when the command runs
import type { ProxyLlmOptions } from '../run/run-proxy-llm.js';

export function registerProxyLlmCommand(proxy: Command, ctx: CliContext): void {
  const command = proxy
    .command('llm')
    .description(
      'A streaming proxy in front of an OpenAI- or Anthropic-style API that fails calls the way the real API does',
    )
    .requiredOption('--upstream <url>', 'the API to forward to, e.g. http://127.0.0.1:9000 or https://api.openai.com')
    .addOption(
      new Option('--api <format>', 'wire format of injected errors; auto picks it from the request path')
        .choices(['openai', 'anthropic', 'auto'])
        .default('auto'),
    )
    .option(
      '--listen <port>',
      'port the agents call (point OPENAI_BASE_URL / ANTHROPIC_BASE_URL at it); 0 picks a free one',
      '7300',
    )
    .option('--control <port>', 'also serve the fault routes, GET /v1/stats and GET /v1/calls on this loopback port')
    .option(
      '--token <token>',
      'require Authorization: Bearer TOKEN on the control port (visible in ps: prefer ARENA_PROXY_TOKEN or --token-file)',
    )
    .option('--token-file <file>', 'read the control port token from this file (its only content)')
    .addOption(
      offerValues(
        new Option('--fault <error_type>', `inject from the start: ${LLM_ERROR_TYPES.join(', ')}`),
        LLM_ERROR_TYPES,
      ),
    )
    .option('--first-n <n>', 'with --fault: fail only the first N matching requests, then pass')
    .option('--probability <p>', 'with --fault: fail a matching request with this chance (0 to 1, seeded)')
    .option(
      '--match <path-or-model>',
      'with --fault: only requests whose path ends with this (/v1/…) or whose model is this (a trailing * matches a prefix)',
    )
    .option(
      '--retry-after <seconds>',
      'with --fault rate_limit|overloaded|server_error: the retry-after header (rate_limit sends 1 by default)',
    )
    .option(
      '--after-events <n>',
      'with --fault stream_error|stream_stall: whole SSE events passed before the break (default 1)',
    )
    .option('--keep <fraction>', 'with --fault truncate: the fraction of the text kept (default 0.5)')
    .option('--delay-ms <ms>', "with --fault slow_first_token: how long the answer's first byte is held (default 5000)")
    .option('--chunk-delay-ms <ms>', 'with --fault slow_stream: the delay before each streamed event (default 500)')
    .option('--requests-per-min <n>', "with --fault rate_limit_storm: each client's requests per minute")
    .option('--tokens-per-min <n>', "with --fault rate_limit_storm: each client's tokens per minute")
    .option('--to-model <model>', 'with --fault model_swap: the model the request goes upstream for')
    .option(
      '--duration <d>',
      'with --fault: end the fault after this long (e.g. 30s); by default it lasts until the proxy stops',
      parseDurationOption,
    )
    .option(
      '--seed <n>',
      'seed of the probability draws (printed when not given, so a run can be replayed)',
      parseSeed,
    );
  examples(command, [
    'arena proxy llm --upstream https://api.openai.com --listen 7300 --control 7301',
    'arena proxy llm --upstream http://127.0.0.1:9000 --fault rate_limit --first-n 2 --retry-after 1',
    'arena proxy llm --upstream https://api.anthropic.com --fault overloaded --probability 0.3 --seed 7',
    "arena proxy llm --upstream http://127.0.0.1:9000 --fault stream_stall --match 'gpt-4o*' --duration 20s",
    'arena proxy llm --upstream https://api.openai.com --fault truncate --keep 0.3 --probability 0.2 --seed 7',
  ]);
  command.action(async (options: ProxyLlmOptions) => {
    const { runProxyLlm } = await import('../run/run-proxy-llm.js');
    await runProxyLlm(options, ctx);
  });
}
