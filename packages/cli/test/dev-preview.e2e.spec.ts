/**
 * The MCP Apps preview of `typemcp dev`, on projects generated with `--template app`: a real
 * `typemcp dev` process serves the preview page, and a real headless Chromium (the machine's
 * /usr/bin/chromium, through playwright-core) opens it like a developer would: picks
 * show_counter, enters its arguments, calls it, sees the view the official AppBridge renders
 * (#count), clicks Increment (increment_counter, through the page's SDK client and the relay to
 * the server) and sees the new count. Editing the view's HTML, then the service, makes the open
 * page show the new version (a server-sent `reload`; the page itself is not reloaded). Requests
 * that name another Host or come from another Origin are refused before they reach the server.
 * The same page previews a stdio server through a server process of its own; `--preview` and
 * `--no-preview` turn it on and off.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exitOf, launch, until } from './support/processes';
import { CLI, makeProject, removeProject } from './support/project';
import { openChromiumProfile } from '../../../test/support/apps-browser';

let browser: Awaited<ReturnType<typeof openChromiumProfile>>;
let context: BrowserContext;
beforeAll(async () => {
  browser = await openChromiumProfile('typemcp-preview-chromium-');
  context = browser.context;
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

/** Starts `typemcp dev` in `dir` with the preview on any free port; resolves with the preview's URL. */
async function startDev(dir: string, env: NodeJS.ProcessEnv = {}, flags: string[] = []) {
  const dev = launch(dir, process.execPath, [CLI, 'dev', '--preview-port', '0', ...flags], { ...process.env, PORT: '0', ...env });
  const found = await until('the preview URL', () => /MCP Apps preview: (\S+)/.exec(dev.stderr()) ?? undefined, 30_000);
  return { ...dev, preview: new URL(found[1]!) };
}

async function stopDev(dev: { child: import('node:child_process').ChildProcess }) {
  dev.child.kill('SIGTERM');
  await exitOf(dev.child, 10_000);
}

/** A page on the preview, its console errors collected. */
async function openPreview(url: URL) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`)));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url.href);
  return { page, errors };
}

const view = (page: Page) => page.frameLocator('#view');
const text = (page: Page, selector: string) => page.locator(selector).textContent();

/** A raw HTTP request to the preview, with the headers given (Host included). */
function raw(url: URL, method: string, pathname: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: pathname, headers }, (res) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('typemcp dev preview, an HTTP server (app template)', () => {
  let dir: string;
  let dev: Awaited<ReturnType<typeof startDev>>;
  let serverUrl: URL;
  const html = () => path.join(dir, 'src/apps/counter.app.html');
  const service = () => path.join(dir, 'src/services/counter.service.ts');

  beforeAll(async () => {
    dir = makeProject('app', 'http');
    dev = await startDev(dir);
    const line = await until('the server', () => /serving MCP over Streamable HTTP at (\S+)/.exec(dev.stderr()) ?? undefined, 30_000);
    serverUrl = new URL(line[1]!);
  }, 60_000);
  afterAll(async () => {
    if (dev) await stopDev(dev);
    removeProject(dir);
  });

  it('lists show_counter, calls it with the arguments typed in, renders its view, and Increment reaches the server', async () => {
    const { page, errors } = await openPreview(dev.preview);
    try {
      // Only the tool a model may call is offered; increment_counter is app-only.
      const tools = page.locator('#tools button');
      await tools.first().waitFor({ timeout: 20_000 });
      expect(await tools.evaluateAll((buttons) => buttons.map((b) => (b as { dataset: { tool?: string } }).dataset.tool))).toEqual(['show_counter']);
      await tools.first().click();
      await page.locator('#args').fill('{ "start": 5 }');
      await page.locator('#run').click();

      await view(page).locator('#count', { hasText: '5' }).waitFor({ timeout: 20_000 });
      expect(await text(page, '#fallback')).toBe('Counter: 5');
      expect(JSON.parse((await text(page, '#structured'))!)).toEqual({ count: 5 });
      // Sandboxed without allow-same-origin: the page cannot reach into the view.
      expect(await page.evaluate("document.getElementById('view').sandbox.value")).toBe('allow-scripts');
      expect(await page.evaluate("document.getElementById('view').contentDocument")).toBeNull();

      await view(page).getByRole('button', { name: 'Increment' }).click();
      await view(page).locator('#count', { hasText: '6' }).waitFor({ timeout: 10_000 });

      // The preview talked to the server's own process: another client sees the count it left.
      const other = new Client({ name: 'checker', version: '1.0.0' });
      await other.connect(new StreamableHTTPClientTransport(serverUrl));
      expect((await other.callTool({ name: 'show_counter', arguments: {} })).structuredContent).toEqual({ count: 6 });
      await other.close();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('shows the edited view, then the edited server, in the open page without reloading it', async () => {
    const originalHtml = readFileSync(html(), 'utf8');
    const originalService = readFileSync(service(), 'utf8');
    const { page, errors } = await openPreview(new URL(`?tool=show_counter&args=${encodeURIComponent('{"start":3}')}`, dev.preview));
    try {
      await view(page).locator('#count', { hasText: '3' }).waitFor({ timeout: 20_000 });
      await page.evaluate('window.keptAcrossReloads = true');
      expect(await view(page).locator('#edited').count()).toBe(0);

      writeFileSync(html(), originalHtml.replace('<main>', '<main>\n      <p id="edited">edited view</p>'));
      // An edit of the view's page restarts the server, after the view is bundled again.
      await until('the restart', () => dev.stderr().includes('src/apps/counter.app.html changed: restarting'), 30_000);
      // The new view, with the last call run again on the restarted server.
      await view(page).locator('#edited', { hasText: 'edited view' }).waitFor({ timeout: 30_000 });
      await view(page).locator('#count', { hasText: '3' }).waitFor({ timeout: 10_000 });
      expect(Number(await text(page, '#reloads'))).toBeGreaterThanOrEqual(1);

      writeFileSync(service(), originalService.replace('text: `Counter: ${count}`', 'text: `The count is ${count}`'));
      await page.locator('#fallback', { hasText: 'The count is 3' }).waitFor({ timeout: 30_000 });
      await view(page).locator('#count', { hasText: '3' }).waitFor({ timeout: 10_000 });
      expect(await page.evaluate('window.keptAcrossReloads')).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      writeFileSync(html(), originalHtml);
      writeFileSync(service(), originalService);
    }
  }, 90_000);

  it('refuses a request naming another Host or coming from another Origin, before it reaches the server', async () => {
    const port = dev.preview.port;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // DNS rebinding: a name that resolves to 127.0.0.1, as the browser puts it in Host.
    const rebound = await raw(dev.preview, 'GET', '/', { host: `evil.example:${port}` });
    expect(rebound).toEqual({ status: 403, body: `typemcp dev preview: Host evil.example:${port} is not this preview\n` });
    // A page of another site posting to the endpoint (a simple request needs no preflight).
    const foreign = await raw(dev.preview, 'POST', '/mcp', { ...mcp, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, call);
    expect(foreign).toEqual({ status: 403, body: 'typemcp dev preview: Origin http://evil.example is not this preview\n' });
    // The same request from the page's own origin is served.
    const own = await raw(dev.preview, 'POST', '/mcp', { ...mcp, host: `localhost:${port}`, origin: `http://localhost:${port}` }, call);
    expect(own.status).toBe(200);
    expect(own.body).toContain('"serverInfo"');
  }, 30_000);
});

describe('typemcp dev preview flags', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('blank', 'http');
  });
  afterAll(() => removeProject(dir));

  it('--preview serves it for a project without views (no app tools to list); --no-preview does not serve it', async () => {
    const dev = await startDev(dir, {}, ['--preview']);
    try {
      const { page, errors } = await openPreview(dev.preview);
      await page.locator('#preview-status', { hasText: 'ready' }).waitFor({ timeout: 20_000 });
      expect(await page.locator('#no-tools').isVisible()).toBe(true);
      expect(await page.locator('#tools button').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await stopDev(dev);
    }
    const off = launch(dir, process.execPath, [CLI, 'dev', '--preview', '--no-preview'], { ...process.env, PORT: '0' });
    try {
      await until('the server', () => /serving MCP over Streamable HTTP at/.test(off.stderr()), 30_000);
      expect(off.stderr()).not.toContain('MCP Apps preview');
    } finally {
      await stopDev(off);
    }
  }, 60_000);
});

describe('typemcp dev preview, a stdio server (app template)', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('app', 'stdio');
  });
  afterAll(() => removeProject(dir));

  it('previews it through a server process of its own: the view renders and Increment is answered', async () => {
    const dev = await startDev(dir);
    const { page, errors } = await openPreview(new URL(`?tool=show_counter&args=${encodeURIComponent('{"start":7}')}`, dev.preview));
    try {
      await view(page).locator('#count', { hasText: '7' }).waitFor({ timeout: 30_000 });
      expect(await text(page, '#fallback')).toBe('Counter: 7');
      await view(page).getByRole('button', { name: 'Increment' }).click();
      await view(page).locator('#count', { hasText: '8' }).waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await stopDev(dev);
    }
  }, 60_000);
});
