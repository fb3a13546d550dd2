/** polls `predicate` every few ms until it holds; fails with `what` after `timeoutMs` */
export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 2000): Promise<number> {
  const start = performance.now();
  while (!(await predicate())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs}ms waiting for: ${what}`);
    await sleep(5);
  }
  return performance.now() - start;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
