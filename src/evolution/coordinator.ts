/**
 * The evolution coordinator: decides what happens to each PatchProposal.
 * - `applyEmergency` applies at once, bypassing the policy (leader and
 *   orchestrator loss cannot wait for a rate limit);
 * - `submit` asks the policy: a patch that changes nothing, or whose
 *   estimated fitness is under `minFitness` or below the current strategy's,
 *   is rejected; over the rate limit (`maxApplied` per `windowMs`) it is
 *   delayed and decided again when the window has room; otherwise applied.
 * Every decision is kept, told to listeners, and appended to the event store
 * when one is given.
 */
import { ANY_VERSION, type EventStore } from '../arena/event-store.js';
import { systemClock, type Clock, type TimerHandle } from '../shared/clock.js';
import { UsageError, errorMessage } from '../shared/errors.js';
import { mergeStrategy, type Strategy } from '../runtime/strategy.js';
import { estimateStrategyFitness } from './estimate.js';
import { isNoOp, type PatchProposal } from './proposals.js';

export const EVOLUTION_DECISIONS_STREAM = 'evolution.decisions';

/** what the coordinator changes: the running runtime (AgentRuntime fits) */
export interface StrategyHolder {
  strategy(): Strategy;
  updateStrategy(patch: unknown): Strategy;
}

export interface DecisionPolicy {
  /** at most this many policy-decided patches applied per window (default 3) */
  maxApplied: number;
  windowMs: number;
  /** a patched strategy estimated under this is rejected (default 50) */
  minFitness: number;
  /** delayed proposals kept at most (default 20); beyond, rejected */
  maxDelayed: number;
}

export const DEFAULT_POLICY: DecisionPolicy = { maxApplied: 3, windowMs: 10_000, minFitness: 50, maxDelayed: 20 };

export type DecisionOutcome = 'applied' | 'delayed' | 'rejected';

export interface Decision {
  seq: number;
  at: string;
  proposal: PatchProposal;
  decision: DecisionOutcome;
  /** applied through applyEmergency, bypassing the policy */
  emergency: boolean;
  reason: string;
  fitness_before?: number;
  fitness_after?: number;
}

export interface CoordinatorOptions {
  target: StrategyHolder;
  policy?: Partial<DecisionPolicy>;
  clock?: Clock;
  /** fitness of a strategy for the policy (default: estimateStrategyFitness) */
  estimate?: (strategy: Strategy) => number | Promise<number>;
  store?: EventStore;
}

export interface CoordinatorStatus {
  policy: DecisionPolicy;
  applied: number;
  emergency: number;
  delayed: number;
  rejected: number;
  pending: PatchProposal[];
  strategy: Strategy;
  fitness: number;
  last_decision?: Decision;
}

export class EvolutionCoordinator {
  readonly policy: DecisionPolicy;
  private readonly target: StrategyHolder;
  private readonly clock: Clock;
  private readonly estimate: (s: Strategy) => number | Promise<number>;
  private readonly store?: EventStore;
  private readonly log: Decision[] = [];
  private readonly delayed: PatchProposal[] = [];
  /** clock.now() of each policy-decided apply, for the rate limit */
  private appliedAt: number[] = [];
  private timer?: TimerHandle;
  private listeners = new Set<(d: Decision) => void>();
  /** decisions are taken one at a time: each sees the strategy the previous one left */
  private chain: Promise<unknown> = Promise.resolve();
  private seq = 0;

  constructor(options: CoordinatorOptions) {
    this.target = options.target;
    this.clock = options.clock ?? systemClock;
    this.estimate = options.estimate ?? estimateStrategyFitness;
    this.store = options.store;
    this.policy = validatePolicy({ ...DEFAULT_POLICY, ...options.policy });
  }

  currentStrategy(): Strategy {
    return this.target.strategy();
  }

  /** applies at once, bypassing the policy (priority ≥ 9) */
  applyEmergency(proposal: PatchProposal): Promise<Decision> {
    return this.serial(async () => {
      const before = this.target.strategy();
      try {
        const after = this.target.updateStrategy(proposal.patch);
        return this.decide(
          proposal,
          'applied',
          true,
          `emergency (priority ${proposal.priority}): applied without policy`,
          await this.estimate(before),
          await this.estimate(after),
        );
      } catch (err) {
        return this.decide(proposal, 'rejected', true, `emergency patch could not be applied: ${errorMessage(err)}`);
      }
    });
  }

  /** lets the policy decide: applied, delayed (rate limit) or rejected */
  submit(proposal: PatchProposal): Promise<Decision> {
    return this.serial(() => this.judge(proposal, false));
  }

  decisions(): Decision[] {
    return [...this.log];
  }

  pending(): PatchProposal[] {
    return [...this.delayed];
  }

  onDecision(listener: (d: Decision) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async status(): Promise<CoordinatorStatus> {
    const count = (pred: (d: Decision) => boolean) => this.log.filter(pred).length;
    const strategy = this.target.strategy();
    return {
      policy: { ...this.policy },
      applied: count((d) => d.decision === 'applied'),
      emergency: count((d) => d.emergency && d.decision === 'applied'),
      delayed: count((d) => d.decision === 'delayed'),
      rejected: count((d) => d.decision === 'rejected'),
      pending: this.pending(),
      strategy,
      fitness: await this.estimate(strategy),
      ...(this.log.length > 0 ? { last_decision: this.log[this.log.length - 1] } : {}),
    };
  }

  /** decides delayed proposals again now (called by the timer when the window has room) */
  retryDelayed(): Promise<Decision[]> {
    return this.serial(async () => {
      const out: Decision[] = [];
      while (this.delayed.length > 0 && this.roomInWindow()) out.push(await this.judge(this.delayed.shift()!, true));
      this.scheduleRetry();
      return out;
    });
  }

  /** resolves when every decision asked for so far is taken and recorded */
  async flush(): Promise<void> {
    await this.chain;
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private async judge(proposal: PatchProposal, isRetry: boolean): Promise<Decision> {
    const before = this.target.strategy();
    if (isNoOp(before, proposal.patch))
      return this.decide(proposal, 'rejected', false, 'no change: the strategy in force already has these values');
    let candidate: Strategy;
    try {
      candidate = mergeStrategy(before, proposal.patch);
    } catch (err) {
      return this.decide(proposal, 'rejected', false, `invalid patch: ${errorMessage(err)}`);
    }
    const fBefore = await this.estimate(before);
    const fAfter = await this.estimate(candidate);
    if (fAfter < this.policy.minFitness) {
      return this.decide(
        proposal,
        'rejected',
        false,
        `estimated fitness ${fAfter} is under the minimum ${this.policy.minFitness}`,
        fBefore,
        fAfter,
      );
    }
    if (fAfter < fBefore)
      return this.decide(
        proposal,
        'rejected',
        false,
        `estimated fitness would drop from ${fBefore} to ${fAfter}`,
        fBefore,
        fAfter,
      );
    if (!this.roomInWindow()) {
      if (this.delayed.length >= this.policy.maxDelayed) {
        return this.decide(
          proposal,
          'rejected',
          false,
          `rate limit reached and ${this.delayed.length} proposals already wait`,
          fBefore,
          fAfter,
        );
      }
      if (isRetry) this.delayed.unshift(proposal);
      else this.delayed.push(proposal);
      this.scheduleRetry();
      return this.decide(
        proposal,
        'delayed',
        false,
        `rate limit: ${this.policy.maxApplied} patches per ${this.policy.windowMs} ms already applied`,
        fBefore,
        fAfter,
      );
    }
    try {
      this.target.updateStrategy(proposal.patch);
    } catch (err) {
      return this.decide(
        proposal,
        'rejected',
        false,
        `the runtime refused the patch: ${errorMessage(err)}`,
        fBefore,
        fAfter,
      );
    }
    this.appliedAt.push(this.clock.now());
    return this.decide(
      proposal,
      'applied',
      false,
      isRetry ? 'applied after waiting for the rate limit' : 'within policy',
      fBefore,
      fAfter,
    );
  }

  private roomInWindow(): boolean {
    const now = this.clock.now();
    this.appliedAt = this.appliedAt.filter((t) => now - t < this.policy.windowMs);
    return this.appliedAt.length < this.policy.maxApplied;
  }

  private scheduleRetry(): void {
    if (this.timer || this.delayed.length === 0) return;
    const oldest = Math.min(...this.appliedAt);
    const wait = Number.isFinite(oldest) ? Math.max(0, oldest + this.policy.windowMs - this.clock.now()) : 0;
    this.timer = this.clock.setTimer(wait, () => {
      this.timer = undefined;
      void this.retryDelayed();
    });
  }

  private async decide(
    proposal: PatchProposal,
    decision: DecisionOutcome,
    emergency: boolean,
    reason: string,
    fitness_before?: number,
    fitness_after?: number,
  ): Promise<Decision> {
    const d: Decision = {
      seq: ++this.seq,
      at: this.clock.wallNow().toISOString(),
      proposal,
      decision,
      emergency,
      reason,
      ...(fitness_before !== undefined ? { fitness_before } : {}),
      ...(fitness_after !== undefined ? { fitness_after } : {}),
    };
    this.log.push(d);
    for (const l of this.listeners) l(d);
    // recording must not lose the decision itself: a store error is kept on the decision log only
    if (this.store)
      await this.store
        .append(EVOLUTION_DECISIONS_STREAM, [{ type: `evolution.${decision}`, data: d }], ANY_VERSION)
        .catch(() => undefined);
    return d;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

function validatePolicy(p: DecisionPolicy): DecisionPolicy {
  const problems: string[] = [];
  if (!(Number.isInteger(p.maxApplied) && p.maxApplied >= 1))
    problems.push(`maxApplied: must be a positive integer, got ${p.maxApplied}`);
  if (!(Number.isFinite(p.windowMs) && p.windowMs > 0)) problems.push(`windowMs: must be positive, got ${p.windowMs}`);
  if (!(Number.isFinite(p.minFitness) && p.minFitness >= 0 && p.minFitness <= 100))
    problems.push(`minFitness: must be from 0 to 100, got ${p.minFitness}`);
  if (!(Number.isInteger(p.maxDelayed) && p.maxDelayed >= 0))
    problems.push(`maxDelayed: must be a non-negative integer, got ${p.maxDelayed}`);
  if (problems.length > 0)
    throw new UsageError(`invalid evolution policy:\n  - ${problems.join('\n  - ')}`, { code: 'invalid_policy' });
  return p;
}
