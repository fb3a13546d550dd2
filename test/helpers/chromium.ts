/**
 * Debian's Chromium for the web console tests, through playwright-core.
 *
 * Run as root, Chromium raises its own priority: its browser and GPU processes to nice -8, renderers
 * to 0 or 5, above every other test's processes, which then move on real time more slowly. It is started
 * through a wrapper that drops CAP_SYS_NICE first, so it keeps the priority it inherits; where that
 * cannot be dropped (not root, or no CAP_SETPCAP) the wrapper starts it as it is, and without the
 * capability it cannot raise a priority anyway.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
const WITHOUT_CAP_SYS_NICE = fileURLToPath(new URL('../fixtures/chromium-without-cap-sys-nice.sh', import.meta.url));

type ContextOptions = NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>;

export function launchChromium(
  profile: string,
  options: Omit<ContextOptions, 'executablePath' | 'env'>,
): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the web console tests need Debian's chromium package. Run scripts/ensure-chromium.sh (npm test does it in pretest).`,
    );
  }
  return chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: WITHOUT_CAP_SYS_NICE,
    env: { ...process.env, ARENA_CHROMIUM_BIN: CHROMIUM },
  });
}
