/**
 * The RuntimeEvolution route group: what the coordinator decided about the
 * running runtime's strategy (status, decisions as "runs"), and a way for an
 * operator to propose a patch by hand — decided by the same policy, or
 * applied at once when its priority is ≥ 9.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, UsageError, errorMessage } from '../shared/errors.js';
import { parseStrategyPatch } from '../runtime/strategy.js';
import type { CoordinatorStatus, Decision, EvolutionCoordinator } from './coordinator.js';
import { EMERGENCY_PRIORITY, type PatchProposal } from './proposals.js';

export class RuntimeEvolutionService {
  constructor(readonly coordinator: EvolutionCoordinator) {}

  status(): Promise<CoordinatorStatus> {
    return this.coordinator.status();
  }

  /** every decision, newest last */
  runs(): Decision[] {
    return this.coordinator.decisions();
  }

  /** a decision by its proposal id */
  run(id: string): Decision {
    const found = this.coordinator
      .decisions()
      .filter((d) => d.proposal.id === id)
      .at(-1);
    if (!found) throw new NotFoundError(`no evolution decision for proposal ${id}`);
    return found;
  }

  /** body `{patch: {section: {field: value}}, priority?: 1–10, reason?}` */
  async startRun(input: Record<string, unknown>): Promise<Decision> {
    const problems: string[] = [];
    for (const key of Object.keys(input))
      if (!['patch', 'priority', 'reason'].includes(key))
        problems.push(`${key}: unknown field (expected patch, priority, reason)`);
    let patch: PatchProposal['patch'] = {};
    if (input.patch === undefined) problems.push('patch: required, e.g. {"election": {"lease_ms": 200}}');
    else {
      try {
        patch = parseStrategyPatch(input.patch, 'patch');
      } catch (err) {
        problems.push(errorMessage(err));
      }
    }
    const priority = input.priority ?? 5;
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1 || priority > 10)
      problems.push(`priority: must be an integer from 1 to 10, got ${JSON.stringify(priority)}`);
    if (input.reason !== undefined && typeof input.reason !== 'string') problems.push('reason: must be a string');
    if (problems.length > 0)
      throw new UsageError(`invalid patch proposal:\n  - ${problems.join('\n  - ')}`, {
        code: 'invalid_input',
        details: problems,
      });
    const proposal: PatchProposal = {
      id: randomUUID(),
      action_id: 'manual',
      action_type: 'manual',
      target_id: '',
      priority: priority as number,
      patch,
      reason: (input.reason as string | undefined) ?? 'proposed by an operator',
      created_at: new Date().toISOString(),
    };
    return proposal.priority >= EMERGENCY_PRIORITY
      ? this.coordinator.applyEmergency(proposal)
      : this.coordinator.submit(proposal);
  }
}
