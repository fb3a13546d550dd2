export { shrinkSchedule } from './shrink.js';
export type { CertificateEntry, ShrinkOutcome, ShrinkOptions } from './shrink.js';
export { sequentialJudge, SEQUENTIAL_DEFAULTS } from './sequential.js';
export type { SequentialOptions, SequentialJudge } from './sequential.js';
export { minimalFailingSubset, ddmin, quickXplainBound } from './search.js';
export { groupFaults } from './groups.js';
export type { Judge, Judgement, RunOnce, RunVerdict, Schedule, ShrinkFault, ShrinkProgress } from './types.js';
