/**
 * Drives an MCP App in a real headless Chromium (the machine's /usr/bin/chromium, through
 * playwright-core): the host page of test/support/apps-host (the official `AppBridge` and SDK
 * 2.x client), bundled with @typemcp/apps' bundleApp, served at the MCP server's own origin.
 * Used by the everything app's browser test and the generated app template's.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { bundleApp } from '@typemcp/apps';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST_ENTRY = path.resolve(__dirname, 'apps-host/host.html');

/** What the host page recorded (`window.hostLog`). */
export interface HostLog {
  events: string[];
  sizes: { width?: number; height?: number }[];
  viewMessages: { method?: string; id?: unknown; params?: unknown; result?: unknown }[];
  errors: string[];
  mimeType?: string;
  contents?: number;
  resourceUri?: string;
  teardown?: unknown;
}

/** Chromium, headless; fails (never skips) when the machine has none. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/**
 * The flags this machine's Chromium needs: headless as root, and no background connections
 * (the closed network refuses them, many at a time).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Chromium with a fresh profile folder of its own (`prefix` names it), removed by `close`. */
export async function openChromiumProfile(prefix: string): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(path.join(tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

let hostHtml: Promise<string> | undefined;

/** Opens the host page for the server at `mcpUrl` (its `/mcp`), which calls `tool` with `args` and renders its view. */
export async function openHost(browser: Browser, mcpUrl: string, tool: string, args: object): Promise<{ page: Page; consoleErrors: string[] }> {
  const html = await (hostHtml ??= bundleApp({ entry: HOST_ENTRY, cacheDir: false }).then((b) => b.html));
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const origin = new URL(mcpUrl).origin;
  // The host page at the server's own origin (Origin checks pass as for any local page).
  await page.route(
    (url) => url.origin === origin && url.pathname === '/host',
    (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
  await page.goto(`${origin}/host?tool=${encodeURIComponent(tool)}&args=${encodeURIComponent(JSON.stringify(args))}`);
  await page.waitForFunction("['ready', 'failed'].includes(document.getElementById('host-status').textContent)", undefined, { timeout: 20_000 });
  return { page, consoleErrors };
}

/** The host page's record (evaluated in the page: this program is compiled without the DOM's types). */
export const hostLog = (page: Page) => page.evaluate<HostLog>('window.hostLog');

/**
 * A counter app (a view with `#count` and an `Increment` button): checks the view shows `start`,
 * clicks Increment and waits for `start + 1`; then tears the view down. Returns the host's record.
 */
export async function clickCounter(page: Page, start: number): Promise<HostLog> {
  const started = await hostLog(page);
  if (started.errors.length) throw new Error(`the host failed: ${started.errors.join('\n')}`);
  const view = page.frameLocator('#view');
  await view.locator('#count', { hasText: String(start) }).waitFor({ timeout: 10_000 });
  await view.getByRole('button', { name: 'Increment' }).click();
  await view.locator('#count', { hasText: String(start + 1) }).waitFor({ timeout: 10_000 });
  await page.evaluate('window.teardown()');
  return hostLog(page);
}
