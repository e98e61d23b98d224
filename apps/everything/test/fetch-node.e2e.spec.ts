/**
 * The everything app, unchanged, served by createFetchHandler on Node (a real process, through
 * @hono/node-server's node:http bridge), through a Hono app with the recipe of docs/guide/runtimes.md, and by the
 * Fastify plugin (at the root and under a prefix); each driven by the official SDK 2.x client
 * (support/fetch-runtime-checks.ts).
 * The Node fetch server also passes the official conformance suite 0.1.13 (--suite all).
 * Needs `npm run build` first.
 */
import type { FastifyInstance } from 'fastify';
import { typemcpFastify } from '@typemcp/http/fastify';
import { createEverythingServer } from '../src/everything.server';
import { expectEverySuiteScenarioPassed, LEGACY_SUITE, runSuite } from './support/conformance';
import { fetchRuntimeChecks } from './support/fetch-runtime-checks';
import { startNode, type RunningServer } from './support/fetch-runtimes';

jest.setTimeout(30_000);

describe('Node: createFetchHandler behind @hono/node-server', () => {
  let server: RunningServer;
  beforeAll(async () => void (server = await startNode('plain')));
  afterAll(() => server?.stop());

  fetchRuntimeChecks(() => server.url, { sessions: true });

  it('passes all 32 server scenarios of the conformance suite 0.1.13 (--suite all)', async () => {
    const { code, output } = await runSuite(process.execPath, LEGACY_SUITE.cli, ['server', '--url', server.url, '--suite', 'all']);
    expectEverySuiteScenarioPassed(code, output);
  }, 120_000);
});

describe("Hono: app.all('/mcp', (c) => handler(c.req.raw))", () => {
  let server: RunningServer;
  beforeAll(async () => void (server = await startNode('hono')));
  afterAll(() => server?.stop());

  fetchRuntimeChecks(() => server.url, { sessions: true });
});

describe('Fastify: app.register(typemcpFastify, { server })', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the optional peer, as an application loads it
    const fastify = require('fastify') as typeof import('fastify').default;
    app = fastify();
    // The host application's own JSON route, whose body Fastify still parses: the plugin's parsers stay inside it.
    app.post('/echo', async (request) => ({ got: request.body }));
    await app.register(typemcpFastify, { server: createEverythingServer(), maxBodyBytes: 64 * 1024, retryMs: 50, keepAliveMs: 0 });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    url = `${address}/mcp`;
  });
  afterAll(() => app?.close());

  fetchRuntimeChecks(() => url, { sessions: true });

  it("leaves the application's other routes and body parsing alone", async () => {
    const answer = await fetch(url.replace(/\/mcp$/, '/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await answer.json()).toEqual({ got: { a: 1 } });
  });
});

describe("Fastify under a prefix: app.register(typemcpFastify, { server, prefix: '/v1' })", () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the optional peer, as an application loads it
    const fastify = require('fastify') as typeof import('fastify').default;
    app = fastify();
    await app.register(typemcpFastify, { server: createEverythingServer(), prefix: '/v1', maxBodyBytes: 64 * 1024, retryMs: 50, keepAliveMs: 0 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app?.close());

  fetchRuntimeChecks(() => `${base}/v1/mcp`, { sessions: true });

  it('serves nothing outside the prefix', async () => {
    for (const outside of ['/mcp', '/sse', '/livez']) expect((await fetch(`${base}${outside}`)).status).toBe(404);
    expect((await fetch(`${base}/v1/livez`)).status).toBe(200);
  });
});
