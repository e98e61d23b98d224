/**
 * The counter app in a real headless Chromium (the machine's /usr/bin/chromium, driven by
 * playwright-core): a host page running the official `AppBridge` (ext-apps 2.0.4) and the
 * official SDK 2.x client over Streamable HTTP to the everything server calls show_counter,
 * reads the view its definition names, and renders it in a sandboxed frame under the
 * specification's restrictive CSP; the view shows the count in #count, its Increment button
 * calls increment_counter through the host, and the server's new count appears. The view's
 * lifecycle messages (ui/initialize, then ui/notifications/initialized; size-changed; the answer
 * to ui/resource-teardown) are checked against ext-apps' schema.json.
 *
 * The host page (test/support/apps-host) is bundled with @typemcp/apps' bundleApp, the same
 * bundler `typemcp build` uses for the view, and served at the server's own origin.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bundleApp } from '@typemcp/apps';
import type { HttpListenerHandle } from '@typemcp/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createEverythingServer } from '../src/everything.server';
import { COUNTER_HTML } from '../src/services/apps.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const uiSchema = require('@modelcontextprotocol/ext-apps/schema.json') as { $id: string };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST_ENTRY = path.resolve(__dirname, '../../../test/support/apps-host/host.html');

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(uiSchema);
const validate = (def: string, value: unknown) => {
  const check = ajv.getSchema(`${uiSchema.$id}#/$defs/${def}`)!;
  return check(value) ? [] : check.errors;
};

interface HostLog {
  events: string[];
  sizes: { width?: number; height?: number }[];
  viewMessages: { method?: string; id?: unknown; params?: unknown; result?: unknown }[];
  errors: string[];
  mimeType?: string;
  contents?: number;
  resourceUri?: string;
  teardown?: unknown;
}

let listener: HttpListenerHandle;
let browser: Browser;
let hostHtml: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  if (!existsSync(COUNTER_HTML)) throw new Error(`${COUNTER_HTML} is missing: npm run build bundles the view`);
  hostHtml = (await bundleApp({ entry: HOST_ENTRY, cacheDir: false })).html;
  listener = await createEverythingServer().listen({ transport: 'http', port: 0, keepAliveMs: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await listener?.close(0);
});

async function openHost(args: object): Promise<{ page: Page; consoleErrors: string[] }> {
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const origin = new URL(listener.url).origin;
  // The host page at the server's own origin (Origin checks pass as for any local page).
  await page.route(
    (url) => url.origin === origin && url.pathname === '/host',
    (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: hostHtml }),
  );
  await page.goto(`${origin}/host?tool=show_counter&args=${encodeURIComponent(JSON.stringify(args))}`);
  return { page, consoleErrors };
}

// Evaluated in the page (a browser expression: this program is compiled without the DOM's types).
const hostLog = (page: Page) => page.evaluate<HostLog>('window.hostLog');

it('renders show_counter in the official AppBridge, and Increment reaches the server through the host', async () => {
  const { page, consoleErrors } = await openHost({ start: 41 });
  try {
    await page.waitForFunction("['ready', 'failed'].includes(document.getElementById('host-status').textContent)", undefined, { timeout: 15_000 });
    const started = await hostLog(page);
    expect(started.errors).toEqual([]);
    expect(started).toMatchObject({ resourceUri: 'ui://everything/counter', mimeType: 'text/html;profile=mcp-app', contents: 1 });

    const view = page.frameLocator('#view');
    await expect(view.locator('#count').textContent({ timeout: 10_000 })).resolves.toBe('41');
    await view.getByRole('button', { name: 'Increment' }).click();
    // Sandboxed without allow-same-origin: the host page cannot reach into the view.
    expect(await page.evaluate("document.getElementById('view').contentDocument")).toBeNull();
    await view.locator('#count', { hasText: '42' }).waitFor({ timeout: 10_000 });

    // The server's count, asked by another client.
    const other = new Client({ name: 'checker', version: '1.0.0' });
    await other.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    expect((await other.callTool({ name: 'show_counter', arguments: {} })).structuredContent).toEqual({ count: 42 });
    await other.close();

    // The lifecycle, as the view spoke it.
    await page.evaluate('window.teardown()');
    const done = await hostLog(page);
    const methods = done.viewMessages.map((m) => m.method ?? (m.result !== undefined ? 'result' : 'other'));
    expect(methods[0]).toBe('ui/initialize');
    expect(methods.indexOf('ui/notifications/initialized')).toBeGreaterThan(0);
    expect(methods).toContain('ui/notifications/size-changed');
    // The call and the view's start run side by side, as in a host; the result goes once both are done.
    expect(done.events[0]).toBe('connected');
    expect([...done.events].sort()).toEqual(['called', 'connected', 'initialized', 'result-sent']);
    expect(done.events.at(-1)).toBe('result-sent');
    expect(done.sizes.length).toBeGreaterThan(0);
    expect(done.teardown).toEqual({});
    const initialize = done.viewMessages[0];
    expect(validate('McpUiInitializeRequest', { method: initialize.method, params: initialize.params })).toEqual([]);
    for (const m of done.viewMessages.filter((v) => v.method === 'ui/notifications/size-changed')) {
      expect(validate('McpUiSizeChangedNotification', { method: m.method, params: m.params })).toEqual([]);
    }
    const call = done.viewMessages.find((m) => m.method === 'tools/call');
    expect(call?.params).toMatchObject({ name: 'increment_counter', arguments: { by: 1 } });
    expect(consoleErrors).toEqual([]);
  } finally {
    await page.close();
  }
});
