/**
 * One agent of the runtime: a task loop (a queue worked off with bounded
 * concurrency) plus the agent's subsystems. Killing an agent terminates its
 * loop: queued and in-flight tasks are lost (their callers see AgentKilledError).
 * Its memory is its durable store and survives a restart; its other
 * subsystems are rebuilt when the supervisor resurrects it.
 */
import { setMaxListeners } from 'node:events';
import type { Clock } from '../shared/clock.js';
import { RuntimeError } from '../shared/errors.js';
import type { AgentKind } from './topology.js';
import type { AgentMemory } from './memory/index.js';
import type { AgentSubsystems } from './subsystems.js';

export type AgentState = 'running' | 'paused' | 'stopped' | 'restarting' | 'failed';

export class AgentUnavailableError extends RuntimeError {
  constructor(
    readonly agentId: string,
    readonly state: string,
  ) {
    super(`agent ${agentId} is ${state}`, { code: 'agent_unavailable' });
  }
}

export class AgentKilledError extends RuntimeError {
  constructor(readonly agentId: string) {
    super(`agent ${agentId} was killed; its in-flight work is lost`, { code: 'agent_killed' });
  }
}

interface Task {
  fn: (signal: AbortSignal) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
}

export interface AgentCounters {
  tasks_run: number;
  tasks_failed: number;
  tasks_lost: number;
}

export interface Agent {
  readonly id: string;
  readonly kind: AgentKind;
  state: AgentState;
  restarts: number;
  /** clock time the current incarnation started */
  startedAt: number;
  /** last heartbeat that reached the cluster (partitions drop them) */
  lastHeartbeatAt: number;
  /** added to every task while slow_agent is active */
  slowMs: number;
  /** network_partition: messages to and from the agent are dropped */
  partitioned: boolean;
  readonly memory: AgentMemory;
  /** acknowledged writes since the last checkpoint, replayed after a restore */
  journal: Array<[string, unknown]>;
  subsystems: AgentSubsystems;
  readonly counters: AgentCounters;
  /** queues `fn` on the task loop; rejects when the agent is not up or is killed before it finishes */
  submit<T>(fn: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** terminates the task loop; in-flight and queued tasks are lost */
  kill(): void;
  /** a new incarnation: fresh loop and subsystems, same memory */
  restart(subsystems: AgentSubsystems): void;
  /** runtime stop: cancels queued and in-flight work (a slowed task's sleep too) without counting a kill */
  halt(): void;
  pause(): void;
  resume(): void;
  /** tasks queued or running */
  readonly load: number;
}

export interface AgentOptions {
  id: string;
  kind: AgentKind;
  clock: Clock;
  memory: AgentMemory;
  subsystems: AgentSubsystems;
  /** tasks the loop runs at once */
  concurrency?: number;
}

export function createAgent(options: AgentOptions): Agent {
  const { clock } = options;
  const concurrency = options.concurrency ?? 16;
  let queue: Task[] = [];
  const inFlight = new Set<Task>();
  // every concurrent task (a slow one sleeping, say) listens on the loop's signal
  const newLoop = () => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    return controller;
  };
  let loop = newLoop();

  const settle = (task: Task) => {
    inFlight.delete(task);
    pump();
  };

  const runTask = (task: Task) => {
    inFlight.add(task);
    const incarnation = loop;
    const delay = agent.slowMs;
    const work = (async () => {
      // slow_agent: the delay is part of the task, on the agent's own loop
      if (delay > 0) await clock.sleep(delay, incarnation.signal);
      if (task.signal?.aborted) throw task.signal.reason;
      return task.fn(incarnation.signal);
    })();
    work.then(
      (value) => {
        if (incarnation !== loop || !inFlight.has(task)) return; // lost in a kill
        agent.counters.tasks_run++;
        task.resolve(value);
        settle(task);
      },
      (error) => {
        if (incarnation !== loop || !inFlight.has(task)) return;
        agent.counters.tasks_failed++;
        task.reject(error);
        settle(task);
      },
    );
  };

  const pump = () => {
    while (agent.state === 'running' && inFlight.size < concurrency && queue.length > 0) runTask(queue.shift()!);
  };

  // A task submitted to the agent starts in a later turn of the event loop, as a message on a network
  // would: one workload run (a message to the orchestrator, then one per step) ran to its end in a
  // single turn, 2-4 ms in which nothing else in the process could run, and an embedded target shares
  // the arena's event loop (its fault schedule; test/bench/cli-survival-drift.mjs). One pump per turn.
  let pumpScheduled = false;
  const pumpNextTurn = () => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  };

  const agent: Agent = {
    id: options.id,
    kind: options.kind,
    state: 'running',
    restarts: 0,
    startedAt: clock.now(),
    lastHeartbeatAt: clock.now(),
    slowMs: 0,
    partitioned: false,
    memory: options.memory,
    journal: [],
    subsystems: options.subsystems,
    counters: { tasks_run: 0, tasks_failed: 0, tasks_lost: 0 },
    submit<T>(fn: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (agent.state !== 'running' && agent.state !== 'paused')
        return Promise.reject(new AgentUnavailableError(agent.id, agent.state));
      return new Promise<T>((resolve, reject) => {
        const task: Task = { fn, resolve: resolve as (v: unknown) => void, reject, signal };
        queue.push(task);
        // a caller that gives up takes its queued task back
        signal?.addEventListener(
          'abort',
          () => {
            if (queue.includes(task)) {
              queue = queue.filter((t) => t !== task);
              reject(signal.reason);
            }
          },
          { once: true },
        );
        pumpNextTurn();
      });
    },
    kill() {
      if (agent.state === 'stopped' || agent.state === 'failed') return;
      const error = new AgentKilledError(agent.id);
      agent.state = 'stopped';
      loop.abort(error);
      const lost = [...inFlight, ...queue];
      inFlight.clear();
      queue = [];
      agent.counters.tasks_lost += lost.length;
      for (const task of lost) task.reject(error);
      void agent.subsystems.close();
    },
    halt() {
      const error = new AgentUnavailableError(agent.id, 'stopping with its runtime');
      const previous = loop;
      loop = newLoop();
      previous.abort(error);
      const cancelled = [...inFlight, ...queue];
      inFlight.clear();
      queue = [];
      for (const task of cancelled) task.reject(error);
    },
    restart(subsystems) {
      loop = newLoop();
      agent.subsystems = subsystems;
      agent.state = 'running';
      agent.restarts++;
      agent.startedAt = clock.now();
      agent.lastHeartbeatAt = clock.now();
      pump();
    },
    pause() {
      if (agent.state === 'running') agent.state = 'paused';
    },
    resume() {
      if (agent.state === 'paused') {
        agent.state = 'running';
        pump();
      }
    },
    get load() {
      return queue.length + inFlight.size;
    },
  };
  return agent;
}
