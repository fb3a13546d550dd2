/**
 * A schedule as a scenario: each fault delayed so it starts at its time after
 * the warmup, the seed fixed, the failing expectations kept on their actions
 * and the gate kept when it was part of the failure — so `arena scenario run`
 * fails the same way. The same draft is validated for the candidate runs and
 * written as the output YAML: one implementation of "this schedule as a run".
 */
import { stringify } from 'yaml';
import { RuntimeError } from '../../shared/errors.js';
import { validateScenario } from '../scenario/validate.js';
import type { Scenario, ScenarioConfig } from '../scenario/types.js';
import { formatSignature, type FailureSignature } from './signature.js';
import type { Schedule } from './types.js';

export interface DraftContext {
  name: string;
  seed: number;
  signature: FailureSignature;
  min_score?: number;
  /** the original run's config: warmup, deadline and timeout are kept */
  config?: Partial<ScenarioConfig>;
}

export function scheduleToDraft(schedule: Schedule, ctx: DraftContext): Record<string, unknown> {
  const sorted = [...schedule.faults].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  let previous = 0;
  const actions = sorted.map((f) => {
    const delay = Math.max(0, f.at_ms - previous);
    previous = f.at_ms;
    const action: Record<string, unknown> = { type: f.type };
    if (f.target_id !== undefined) action.target_id = f.target_id;
    if (f.source_id !== undefined) action.source_id = f.source_id;
    if (f.metadata !== undefined) action.metadata = { ...f.metadata };
    const step: Record<string, unknown> = { label: f.label, delay: `${delay}ms`, action };
    if (f.expect_success) step.expect_success = true;
    if (f.expect_failure) step.expect_failure = true;
    return step;
  });
  const cfg = ctx.config ?? {};
  const config: Record<string, unknown> = {
    seed: ctx.seed,
    warmup: `${cfg.warmup_ms ?? 1000}ms`,
    cooldown: `${schedule.cooldown_ms}ms`,
    stop_on_error: false,
  };
  if (cfg.recovery_deadline_ms !== undefined) config.recovery_deadline = `${cfg.recovery_deadline_ms}ms`;
  const draft: Record<string, unknown> = {
    name: ctx.name,
    description: `Shrunk by arena shrink: fails with ${formatSignature(ctx.signature)}`,
    tags: ['shrink', 'regression'],
    config,
  };
  if (ctx.signature.failures.includes('gate:min_score') && ctx.min_score !== undefined)
    draft.expect = { min_score: ctx.min_score };
  draft.actions = actions;
  return draft;
}

/**
 * A scenario file needs an action, a run does not: the run without any fault (what the certificate of a
 * last remaining fault measures) is validated with a stand-in step, taken out before anything runs.
 */
const STAND_IN: Schedule['faults'][number] = {
  id: -1,
  label: 'stand-in',
  type: 'kill_agent',
  target_id: 'none',
  at_ms: 0,
};

export function scheduleToScenario(schedule: Schedule, ctx: DraftContext): Scenario {
  if (schedule.faults.length === 0)
    return { ...scheduleToScenario({ ...schedule, faults: [STAND_IN] }, ctx), actions: [] };
  const v = validateScenario(scheduleToDraft(schedule, ctx));
  if (!v.valid)
    throw new RuntimeError(
      `shrink built an invalid scenario: ${v.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      { code: 'shrink_invalid_scenario' },
    );
  return v.scenario!;
}

export function scheduleToYaml(schedule: Schedule, ctx: DraftContext, header: string): string {
  return header + stringify(scheduleToDraft(schedule, ctx), { lineWidth: 0 });
}
