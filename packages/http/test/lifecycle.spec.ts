/**
 * Session lifetime (idle expiry, the cap, 503), graceful shutdown, the request log, and mounting
 * the MCP routes into an existing express app.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMcpExpressApp, MemorySessionStore, type StoredSession } from '@typemcp/http';
import { buildEngine, call, errorBody, initialize, messagesOf, parseSse, post, serve, SseReader } from './support/http-fixture';

const stored = (id: string, busy = false, lastActiveAt = Date.now()): StoredSession & { closed: number } => ({
  id,
  kind: 'streamable',
  busy,
  lastActiveAt,
  closed: 0,
  close() {
    this.closed++;
    return Promise.resolve();
  },
});

describe('MemorySessionStore', () => {
  it('closes sessions idle past the timeout, never busy ones', () => {
    const store = new MemorySessionStore({ idleTimeoutMs: 1000 });
    const now = Date.now();
    const idle = stored('idle', false, now - 2000);
    const busy = stored('busy', true, now - 2000);
    const fresh = stored('fresh', false, now);
    for (const s of [idle, busy, fresh]) store.add(s);
    store.sweep(now);
    expect([idle.closed, busy.closed, fresh.closed]).toEqual([1, 0, 0]);
    expect([...store.values()].map((s) => s.id)).toEqual(['busy', 'fresh']);
    store.dispose();
  });

  it('evicts the least recently used idle session when full, and refuses when all are busy', () => {
    const evicted: string[] = [];
    const store = new MemorySessionStore({ maxSessions: 2, onEvict: (s, why) => evicted.push(`${s.id}:${why}`) });
    const [a, b, c] = [stored('a'), stored('b'), stored('c')];
    store.add(a);
    store.add(b);
    store.get('a'); // a is now the most recently used
    expect(store.add(c)).toBe(true);
    expect(evicted).toEqual(['b:capacity']);
    expect(b.closed).toBe(1);
    const full = new MemorySessionStore({ maxSessions: 1 });
    full.add(stored('x', true));
    expect(full.add(stored('y'))).toBe(false);
    store.dispose();
    full.dispose();
  });
});

describe('sessions over HTTP', () => {
  it('expires idle sessions (then 404) and answers 503 when every session is busy', async () => {
    const s = await serve({ idleTimeoutMs: 100, maxSessions: 1 });
    try {
      const { sessionId } = await initialize(s.url);
      const reader = new SseReader(await fetch(s.url, { headers: { 'mcp-session-id': sessionId, accept: 'text/event-stream' } }));
      await reader.next();
      // A session with an open stream is busy: no room for another.
      const refused = await post(s.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect((await errorBody(refused)).error.data.code).toBe('TYPEMCP_HTTP_TOO_MANY_SESSIONS');
      await reader.cancel();
      await new Promise((r) => setTimeout(r, 250));
      expect((await post(s.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': sessionId })).status).toBe(404);
      expect(s.engine.openSessions.size).toBe(0);
    } finally {
      await s.listener.close(0);
    }
  });
});

describe('graceful shutdown', () => {
  it('gives in-flight requests graceMs, answers the rest with an error, ends streams and closes the server', async () => {
    const s = await serve();
    const { sessionId } = await initialize(s.url);
    const quick = post(
      s.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { ms: 60 } } },
      { 'mcp-session-id': sessionId },
    );
    const stuck = post(
      s.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { ms: 10_000 } } },
      { 'mcp-session-id': sessionId },
    );
    const standalone = new SseReader(await fetch(s.url, { headers: { 'mcp-session-id': sessionId, accept: 'text/event-stream' } }));
    await standalone.next();
    const [quickRes, stuckRes] = await Promise.all([quick, stuck]);
    const started = Date.now();
    await s.listener.close(300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(messagesOf(parseSse(await quickRes.text()))[0]).toMatchObject({ id: 1, result: { content: [{ text: 'slept 60' }] } });
    expect(messagesOf(parseSse(await stuckRes.text()))[0]).toMatchObject({ id: 2, error: { code: -32000, message: 'Server is shutting down' } });
    expect(await standalone.next()).toBeUndefined();
    expect(s.engine.openSessions.size).toBe(0);
    await expect(fetch(`${s.base}/health`)).rejects.toThrow();
  });
});

describe('request log', () => {
  it('writes one JSON line per request to stderr when log is true', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const s = await serve({ log: true });
    try {
      await fetch(`${s.base}/health`);
      const { sessionId } = await initialize(s.url);
      await call(s.url, sessionId, 1, 'ping');
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      spy.mockRestore();
      await s.listener.close(0);
    }
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => `${String(r.method)} ${String(r.path)} ${String(r.status)}`)).toEqual([
      'GET /health 200',
      'POST /mcp 200',
      'POST /mcp 202',
      'POST /mcp 200',
    ]);
    expect(records[3]).toMatchObject({ session: expect.any(String), ms: expect.any(Number), time: expect.any(String) });
  });
});

describe('createMcpExpressApp', () => {
  it('mounts under a prefix next to other routes, behind an upstream JSON parser, without touching them', async () => {
    const engine = buildEngine();
    const mcp = createMcpExpressApp(engine, { keepAliveMs: 0 });
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.get('/other', (_req, res) => void res.send('other route'));
    app.use('/api', mcp.app);
    const server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Another Host reaches the host app's own routes: the MCP guard applies to MCP routes only.
      expect(await (await fetch(`${base}/other`, { headers: { origin: 'https://elsewhere.example' } })).text()).toBe('other route');
      const { sessionId } = await initialize(`${base}/api/mcp`);
      expect(mcp.sessionCount).toBe(1);
      const { events } = await call(`${base}/api/mcp`, sessionId, 1, 'tools/call', { name: 'echo', arguments: { text: 'mounted' } });
      expect(messagesOf(events)[0]).toMatchObject({ result: { content: [{ text: 'mounted' }] } });
      const sse = new SseReader(await fetch(`${base}/api/sse`));
      expect((await sse.next())?.data).toMatch(/^\/api\/messages\?sessionId=/);
      await sse.cancel();
    } finally {
      await mcp.close(0);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
