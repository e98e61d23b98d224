/**
 * Redis goes away and comes back: a TCP forwarder in front of the real Redis is stopped and
 * restarted. Requests that need the store fail fast with 503 and a clear message, the instance
 * keeps serving what does not (2026-07-28 requests), /health says which, and it recovers alone.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ProtocolServer } from '@typemcp/protocol';
import { serveHttp, type HttpListener } from '@typemcp/http';
import { redisState } from '@typemcp/redis';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

/** Forwards a local port to Redis; `stop()` cuts every connection and refuses new ones. */
class Forwarder {
  private server?: Server;
  private sockets = new Set<Socket>();
  port = 0;

  async start(): Promise<void> {
    const target = new URL(REDIS_URL);
    this.server = createServer((socket) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [socket, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
const modernPing = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });

describeWithRedis('Redis down and back', redisUnavailable(), () => {
  const prefix = testPrefix('down');
  const forwarder = new Forwarder();
  let listener: HttpListener;
  const errors: string[] = [];

  beforeAll(async () => {
    await forwarder.start();
    const engine = new ProtocolServer({ serverInfo: { name: 'down', version: '1' }, onError: () => {} });
    engine.registry.addTool({ name: 'echo', description: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
    listener = await serveHttp(engine, {
      port: 0,
      keepAliveMs: 0,
      state: redisState({ url: `redis://127.0.0.1:${forwarder.port}`, prefix, commandTimeoutMs: 300, connectTimeoutMs: 500 }),
      onError: (_e, where) => errors.push(where),
    });
  });
  afterAll(async () => {
    await listener?.close(0);
    await forwarder.stop().catch(() => undefined);
    await deleteKeys(prefix);
  });

  const health = async () =>
    (await (await fetch(listener.url.replace(/\/mcp$/, '/health'))).json()) as { status: string; state: { ok: boolean; detail: string } };

  /** Polls /health (100 ms apart, at most `tries` times) until the store is reachable. */
  const storeUp = async (tries: number) => {
    for (let i = 0; i < tries; i++) {
      if ((await health()).state.ok) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('503 with a clear message while Redis is away, stateless requests still served, and recovery without a restart', async () => {
    // The first connection (500 ms connect, 300 ms per command) can be slower than that on a loaded machine: start from "up".
    expect(await storeUp(100)).toBe(true);
    expect((await initialize(listener.url)).status).toBe(200);
    expect(await health()).toMatchObject({ status: 'ok', state: { ok: true, detail: 'redis: up' } });

    await forwarder.stop();
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const refused = await initialize(listener.url);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('TYPEMCP_HTTP_STATE_UNAVAILABLE');
    expect(body.error.message).toMatch(/shared session store cannot be reached/);
    expect(await health()).toMatchObject({ status: 'degraded', state: { ok: false } });
    // What needs no store goes on.
    expect((await modernPing(listener.url)).status).toBe(200);

    await forwarder.start();
    expect(await storeUp(60)).toBe(true);
    expect((await initialize(listener.url)).status).toBe(200);
  }, 20_000);
});
