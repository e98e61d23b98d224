/**
 * The counter app in memory, as a host sees it and as a client without views does: a real
 * TypeMCP server and MCP client (no browser), the view bundled first as `npm run build` does.
 */
import * as path from 'node:path';
import { bundleApp } from '@typemcp/apps';
import { APPS_HOST_EXTENSIONS, createTestClient, renderApp, type TestClient } from '@typemcp/testing';
import { createAppServer } from '../src/server.js';
import { COUNTER_HTML, CounterService } from '../src/services/counter.service.js';

beforeAll(() => bundleApp({ entry: path.join(__dirname, '..', 'src', 'apps', 'counter.app.html'), outFile: COUNTER_HTML }));

describe('CounterService', () => {
  let host: TestClient;
  beforeEach(async () => {
    host = await createTestClient({ server: createAppServer({ services: [CounterService] }), closeServer: true, clientExtensions: { ...APPS_HOST_EXTENSIONS } });
  });
  afterEach(() => host.close());

  it('shows the counter in its view, with the text for clients without views', async () => {
    const counter = await renderApp(host, 'show_counter', { start: 5 });
    expect(counter.problems).toEqual([]);
    expect(counter).toMatchObject({ resourceUri: 'ui://counter/view', modelVisible: true, fallbackText: 'Counter: 5', structuredContent: { count: 5 } });
    expect(counter.view?.html).toContain('<button id="increment"');
    expect(counter.view?.meta).toEqual({ prefersBorder: true });
  });

  it('the view increments through the host; the model never sees increment_counter', async () => {
    const counter = await renderApp(host, 'show_counter', { start: 1 });
    expect((await counter.callAsApp('increment_counter', { by: 2 })).structuredContent).toEqual({ count: 3 });
    expect((await renderApp(host, 'increment_counter')).modelVisible).toBe(false);
  });

  it('a client that renders no views gets the text, and no app-only tool in its list', async () => {
    const plain = await createTestClient({ server: createAppServer({ services: [CounterService] }), closeServer: true });
    expect((await plain.listTools()).map((t) => t.name)).toEqual(['show_counter']);
    expect((await renderApp(plain, 'show_counter', { start: 7 })).fallbackText).toBe('Counter: 7');
    await plain.close();
  });
});
