/** The speed part of the recovery dimension (DESIGN §5), shared by the score and its interval. */
/** MTTR at or under this scores full speed */
export const FAST_RECOVERY_MS = 1000;
/** MTTR at or over this scores zero speed */
export const SLOW_RECOVERY_MS = 10_000;

/** 100 at MTTR ≤ 1 s, 0 at ≥ 10 s, linear between; 0 when nothing recovered */
export function recoverySpeed(mttrMs: number | null): number {
  if (mttrMs === null || !Number.isFinite(mttrMs)) return 0;
  if (mttrMs <= FAST_RECOVERY_MS) return 100;
  if (mttrMs >= SLOW_RECOVERY_MS) return 0;
  return (100 * (SLOW_RECOVERY_MS - mttrMs)) / (SLOW_RECOVERY_MS - FAST_RECOVERY_MS);
}
