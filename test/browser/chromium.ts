// Debian's Chromium, driven by playwright-core (which never downloads a browser of its own), with a
// fresh empty profile per suite and the flags that keep it offline and quiet.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedChromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchChromium(profilePrefix: string): Promise<LaunchedChromium> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run bash bin/ensure-test-deps.sh`);
  const profileDir = mkdtempSync(join(tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  // A wait's limit, not a delay: every wait returns as soon as its condition holds. 45 s because the
  // CI machine (2 cores) runs the browser suites beside the other layers; one step of the console
  // suite once took longer than 20 s there. Each suite's own timeout (120-180 s) stays above it.
  context.setDefaultTimeout(45_000);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

function isLoopbackUrl(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/**
 * Aborts every request of the context that would leave loopback, so a page that needs another
 * origin fails visibly; returns the list the aborted URLs are added to.
 */
export async function keepToLoopback(context: BrowserContext): Promise<string[]> {
  const leftLoopback: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLoopbackUrl(url)) return route.continue();
    leftLoopback.push(url);
    return route.abort('blockedbyclient');
  });
  return leftLoopback;
}
