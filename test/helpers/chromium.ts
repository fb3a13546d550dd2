/**
 * Debian's Chromium for the web console tests, through playwright-core.
 *
 * Run as root, Chromium raises its own priority: its browser and GPU processes to nice -8, renderers
 * to 0 or 5, above every other test's processes, which then move on real time more slowly. It is started
 * through a wrapper that drops CAP_SYS_NICE first, so it keeps the priority it inherits; where that
 * cannot be dropped (not root, or no CAP_SETPCAP) the wrapper starts it as it is, and without the
 * capability it cannot raise a priority anyway.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

/** the flags the machine notes give a headless Chromium on a closed network (it otherwise calls out at start) */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** a page of a headless Chromium on a fresh profile at `url`; `close` ends the browser and removes the profile */
export async function openPage(url: string): Promise<{ page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'arena-chromium-'));
  const context = await launchChromium(profile, { headless: true, args: HEADLESS_ARGS });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    return { page, close };
  } catch (err) {
    await close();
    throw err;
  }
}
