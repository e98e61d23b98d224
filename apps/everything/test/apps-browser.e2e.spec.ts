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
import Ajv2020 from 'ajv/dist/2020';
import type { Browser } from 'playwright-core';
import type { HttpListenerHandle } from '@typemcp/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { clickCounter, hostLog, launchChromium, openHost } from '../../../test/support/apps-browser';
import { createEverythingServer } from '../src/everything.server';
import { COUNTER_HTML } from '../src/services/apps.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const uiSchema = require('@modelcontextprotocol/ext-apps/schema.json') as { $id: string };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(uiSchema);
const validate = (def: string, value: unknown) => {
  const check = ajv.getSchema(`${uiSchema.$id}#/$defs/${def}`)!;
  return check(value) ? [] : check.errors;
};

let listener: HttpListenerHandle;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(COUNTER_HTML)) throw new Error(`${COUNTER_HTML} is missing: npm run build bundles the view`);
  listener = await createEverythingServer().listen({ transport: 'http', port: 0, keepAliveMs: 0 });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await listener?.close(0);
});

it('renders show_counter in the official AppBridge, and Increment reaches the server through the host', async () => {
  const { page, consoleErrors } = await openHost(browser, listener.url, 'show_counter', { start: 41 });
  try {
    const started = await hostLog(page);
    expect(started.errors).toEqual([]);
    expect(started).toMatchObject({ resourceUri: 'ui://everything/counter', mimeType: 'text/html;profile=mcp-app', contents: 1 });
    // Sandboxed without allow-same-origin: the host page cannot reach into the view.
    expect(await page.evaluate("document.getElementById('view').contentDocument")).toBeNull();
    const done = await clickCounter(page, 41);

    // The server's count, asked by another client.
    const other = new Client({ name: 'checker', version: '1.0.0' });
    await other.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    expect((await other.callTool({ name: 'show_counter', arguments: {} })).structuredContent).toEqual({ count: 42 });
    await other.close();

    // The lifecycle, as the view spoke it.
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
