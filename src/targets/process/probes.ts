/**
 * Health probes (http, tcp, command) and the monitor that runs one on its
 * interval and counts consecutive passes. Recovery is measured from the
 * injection to the probe's Nth consecutive pass, so `reset()` starts the count
 * over and throws away any probe that was already in flight when it was
 * called: a pass seen before the fault must never count as recovery.
 */
import net from 'node:net';
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import { runCommand, describeFailure } from './command.js';
import { httpCall } from '../../shared/http-call.js';
import { PROBE_DEFAULTS, type ProbeSpec } from './spec.js';

export interface ProbeContext {
  cwd: string;
  env?: Record<string, string>;
}

export type ProbeOutcome = { ok: true } | { ok: false; problem: string };

export function probeTimeout(spec: ProbeSpec): number {
  return spec.timeout ?? PROBE_DEFAULTS.timeoutMs;
}

export function describeProbe(
  spec: Pick<ProbeSpec, never> & ({ http: string } | { tcp: string } | { command: string }),
): string {
  if ('http' in spec) return `GET ${spec.http}`;
  if ('tcp' in spec) return `tcp ${spec.tcp}`;
  return `command ${JSON.stringify(spec.command)}`;
}

export async function probeOnce(
  spec: { http: string } | { tcp: string } | { command: string },
  timeoutMs: number,
  ctx: ProbeContext,
): Promise<ProbeOutcome> {
  try {
    if ('http' in spec) {
      const answer = await httpCall({ url: spec.http, timeoutMs, maxBytes: 64 * 1024, overflow: 'cut' });
      return answer.status >= 200 && answer.status < 400
        ? { ok: true }
        : { ok: false, problem: `${spec.http}: status ${answer.status}` };
    }
    if ('tcp' in spec) return await tcpConnect(spec.tcp, timeoutMs);
    const result = await runCommand({ command: spec.command, cwd: ctx.cwd, env: ctx.env, timeoutMs });
    return result.code === 0
      ? { ok: true }
      : { ok: false, problem: `probe command ${describeFailure(result, timeoutMs)}` };
  } catch (err) {
    return { ok: false, problem: (err as Error).message };
  }
}

function tcpConnect(hostPort: string, timeoutMs: number): Promise<ProbeOutcome> {
  const at = hostPort.lastIndexOf(':');
  const host = hostPort.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(hostPort.slice(at + 1));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(
      () => done({ ok: false, problem: `tcp ${hostPort}: no connection within ${timeoutMs}ms` }),
      timeoutMs,
    );
    const done = (outcome: ProbeOutcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    socket.once('connect', () => done({ ok: true }));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done({
        ok: false,
        problem: `tcp ${hostPort}: ${err.code === 'ECONNREFUSED' ? 'connection refused' : err.message}`,
      }),
    );
  });
}

export interface ProbeState {
  consecutive: number;
  healthy: boolean;
  lastProblem?: string;
  probes: number;
}

export class ProbeMonitor {
  private consecutive = 0;
  private epoch = 0;
  private probes = 0;
  private passed = 0;
  private lastProblem: string | undefined = 'not probed yet';
  private timer: TimerHandle | undefined;
  private running = false;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  readonly passes: number;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly spec: ProbeSpec,
    private readonly ctx: ProbeContext,
    private readonly clock: Clock = systemClock,
  ) {
    this.intervalMs = spec.interval ?? PROBE_DEFAULTS.intervalMs;
    this.timeoutMs = probeTimeout(spec);
    this.passes = spec.passes ?? PROBE_DEFAULTS.passes;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.tick();
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
    this.notify();
  }

  /** forget every pass so far, including probes in flight: the count restarts at this moment */
  reset(): void {
    this.epoch++;
    this.consecutive = 0;
    this.lastProblem = 'not probed since the fault';
  }

  state(): ProbeState {
    return {
      consecutive: this.consecutive,
      healthy: this.consecutive >= this.passes,
      lastProblem: this.lastProblem,
      probes: this.probes,
    };
  }

  /** every probe counted so far as a request: the steady state of a target without a workload */
  counters(): { requests: number; succeeded: number; failed: number } {
    return { requests: this.probes, succeeded: this.passed, failed: this.probes - this.passed };
  }

  /** resolves after the next probe result is counted (or the monitor stops) */
  nextResult(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    const epoch = this.epoch;
    const started = this.clock.now();
    const outcome = await probeOnce(this.spec, this.timeoutMs, this.ctx);
    if (!this.running) return;
    if (epoch === this.epoch) {
      this.probes++;
      if (outcome.ok) {
        this.passed++;
        this.consecutive++;
        this.lastProblem = undefined;
      } else {
        this.consecutive = 0;
        this.lastProblem = outcome.problem;
      }
      this.notify();
    }
    const wait = Math.max(0, this.intervalMs - (this.clock.now() - started));
    this.timer = this.clock.setTimer(wait, () => void this.tick());
  }
}
