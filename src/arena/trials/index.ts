/** Trials (DESIGN §14): pass^k under faults, behaviour and cost of a target's tasks. */
export { runTrialsOnTarget, type RunTrialsOptions } from './run.js';
export type { TrialsReport, TrialsBody, TaskReport, ArmStats, SurfacePoint, GateResult } from './report.js';
export type { TrialTasks, TrialTaskInfo, TrialMark, TrialAnswer, ModelPrice } from './tasks.js';
export type { TrialGates, MinPassK } from './gates.js';
