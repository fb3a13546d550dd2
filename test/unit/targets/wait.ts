/**
 * polls `predicate` every few ms until it holds; fails with `what` after `timeoutMs` (10 s by default:
 * a passing wait returns as soon as it holds, and 2 s ran out on a starved machine)
 */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<number> {
  const start = performance.now();
  while (!(await predicate())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs}ms waiting for: ${what}`);
    await sleep(5);
  }
  return performance.now() - start;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
