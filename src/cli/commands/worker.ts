/**
 * `arena worker --store postgres://… [--concurrency N]`: executes the runs that
 * `arena regress|trials|shrink --workers postgres://…` put on the queue in that
 * database, each on a fresh target (src/bootstrap/worker-executors.ts), and
 * writes the results back. Ctrl-C gives running runs back to the queue and stops.
 */
import type { Command } from 'commander';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { examples, parseDurationOption } from './options.js';
import { UsageError } from '../../shared/errors.js';
import { parseDuration } from '../../shared/duration.js';
import { storeKind, storeSpec } from '../../events/store-spec.js';

interface WorkerOptions {
  store?: string;
  concurrency?: string;
  lease?: string;
  dir?: string;
}

export function registerWorkerCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('worker')
    .description(
      'Take runs from the queue in a PostgreSQL store (regress arms, rounds of trials, shrink candidate runs), execute each on a fresh target, write the results back',
    )
    .option(
      '--store <url>',
      'the postgres:// database regress/trials/shrink --workers queue runs in (or set ARENA_STORE)',
    )
    .option(
      '--dir <path>',
      'the checkout that relative target file paths in trials and shrink runs resolve against (default: the working directory)',
    )
    .option('--concurrency <n>', 'runs executing at once (default 1)')
    .option(
      '--lease <duration>',
      'a run whose worker has not renewed it for this long is taken again by another (default 30s)',
      parseDurationOption,
    );
  examples(command, [
    'arena worker --store postgres://arena@db.internal:5432/arena',
    'ARENA_STORE=postgres://arena@db.internal/arena arena worker --concurrency 4',
    'arena regress --baseline a.yaml --candidate b.yaml --workers postgres://arena@db.internal/arena',
    'arena trials --target examples/llm-agent/target.yaml --trials 8 --workers postgres://arena@db.internal/arena',
  ]);
  command.action(async (options: WorkerOptions) => {
    const spec = storeSpec(options.store, ctx.env);
    if (spec === undefined || storeKind(spec) !== 'postgres') {
      throw new UsageError(
        `arena worker needs --store postgres://… (or ARENA_STORE): the run queue lives in PostgreSQL${spec === undefined ? '' : `, got ${JSON.stringify(spec)}`}`,
        { code: 'invalid_store' },
      );
    }
    const concurrency = options.concurrency === undefined ? 1 : Number(options.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
      throw new UsageError(`--concurrency must be an integer from 1 to 64, got ${JSON.stringify(options.concurrency)}`);
    const leaseMs = options.lease === undefined ? 30_000 : parseDuration(options.lease);
    if (leaseMs < 300) throw new UsageError(`--lease must be at least 300ms, got ${options.lease}`);

    const [{ PostgresEventStore }, { PostgresRunQueue }, { runWorker }, { workerExecutors }, { describeRun }] =
      await Promise.all([
        import('../../events/postgres.js'),
        import('../../events/run-queue.js'),
        import('../../arena/queue/worker.js'),
        import('../../bootstrap/worker-executors.js'),
        import('../output/queued-run.js'),
      ]);
    const dir = options.dir === undefined ? ctx.cwd : resolve(ctx.cwd, options.dir);
    const store = new PostgresEventStore({ url: spec, poolSize: concurrency + 2 });
    try {
      await store.ready();
      const name = `${hostname()}:${process.pid}`;
      ctx.stderr.write(`worker ${name}: taking runs from ${store.location}, ${concurrency} at a time (Ctrl-C stops)\n`);
      const { completed } = await runWorker({
        queue: new PostgresRunQueue(store),
        executors: workerExecutors({ cwd: dir, env: ctx.env }),
        name,
        concurrency,
        leaseMs,
        signal: ctx.signal,
        onEvent: (e) => {
          if (e.type === 'waiting') return void ctx.stderr.write(`  waiting for the database: ${e.error}\n`);
          if (e.type === 'reconnected') return void ctx.stderr.write('  the database answers again\n');
          const what = describeRun(e.run.request, e.run.attempt);
          if (e.type === 'took') ctx.stderr.write(`  took ${what}\n`);
          else if (e.type === 'done')
            ctx.stderr.write(
              `  done ${what}${e.score !== undefined ? `: ${e.score.toFixed(1)}` : ''}${e.written ? '' : ' (not written: the run was taken again meanwhile)'}\n`,
            );
          else if (e.type === 'failed') ctx.stderr.write(`  failed ${what}: ${e.error}\n`);
          else if (e.type === 'lost')
            ctx.stderr.write(
              `  lost ${what}: its lease lapsed and another worker took it, or its job was abandoned and its runs withdrawn\n`,
            );
          else ctx.stderr.write(`  gave back ${what}\n`);
        },
      });
      ctx.stderr.write(`worker ${name}: stopped after ${completed} run${completed === 1 ? '' : 's'}\n`);
    } finally {
      await store.close();
    }
  });
}
