/**
 * Rate limits over real sockets: the HTTP limiter answers a flood from one principal with 429
 * and Retry-After before the body is read or any session looked up (a request whose body never
 * arrives, or claims to be over maxBodyBytes, still gets its 429 at once; the tool never runs),
 * other principals keep working with the official SDK client, the bucket refills on the
 * injected clock, unauthenticated callers fall back to their address; and the rateLimit()
 * interceptor's -32004 reaches the SDK client with data.retryAfterMs.
 */
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { createServer, getMetadataStorage, McpService, MemoryRateLimitStore, rateLimit, Tool, type TypeMcpServer } from '@typemcp/core';
import { serveHttp, type HttpListener, type ServeHttpOptions } from '@typemcp/http';
import { head } from './support/raw-socket';

const TOKENS: Record<string, { sub: string }> = { 'token-alice': { sub: 'alice' }, 'token-bob': { sub: 'bob' } };
const clock = { now: 1_000_000 };
let toolCalls = 0;

function buildServer(interceptors: Parameters<typeof createServer>[0]['interceptors'] = []): TypeMcpServer {
  getMetadataStorage().reset();
  @McpService()
  class Work {
    @Tool({ description: 'Does some work' })
    work() {
      toolCalls++;
      return 'done';
    }
  }
  return createServer({ name: 'limited', version: '1.0.0', services: [Work], interceptors });
}

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function serve(options: ServeHttpOptions, server = buildServer()): Promise<HttpListener> {
  const listener = await serveHttp(server, { port: 0, keepAliveMs: 0, onError: () => {}, ...options });
  open.push(listener);
  return listener;
}

async function sdkClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'rate-limit-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  open.push(client);
  return client;
}

/** Stateless, so a lone `ping` POST is a complete exchange (200). */
const withAuth = (limit: { capacity: number; refillPerSecond: number }): ServeHttpOptions => ({
  sessions: false,
  auth: { verify: (token) => TOKENS[token] },
  rateLimit: { ...limit, clock: () => clock.now },
});

const ping = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

/** Sends only a request head (the body is announced, never sent) and resolves with the status line and headers the server answers. */
function headOnly(port: number, path: string, headers: Record<string, string>, waitMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let seen = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer without the body; got ${JSON.stringify(seen)}`))), waitMs);
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(seen);
      }
    });
    socket.on('error', reject);
    socket.write(head('POST', path, port, headers));
  });
}

describe('HTTP rate limit (rateLimit option)', () => {
  it('answers a flood from one principal with 429 + Retry-After, while another principal keeps working', async () => {
    const listener = await serve(withAuth({ capacity: 8, refillPerSecond: 0.25 }));
    const alice = await sdkClient(listener.url, 'token-alice');
    await alice.callTool({ name: 'work', arguments: {} });
    toolCalls = 0;
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await ping(listener.url, 'token-alice');
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
      else await res.text();
    }
    // Some of the 8 were spent by the SDK client's connection; the rest of the flood is refused.
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(0);
    expect(statuses.slice(firstRefusal).every((s) => s === 429)).toBe(true);
    expect(refused!.headers.get('retry-after')).toBe('4');
    expect(await refused!.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32004,
        message: 'Too many requests: rate limit exceeded; retry in 4000 ms',
        data: { code: 'TYPEMCP_HTTP_RATE_LIMITED', retryAfterMs: 4000 },
      },
    });
    await expect(alice.callTool({ name: 'work', arguments: {} })).rejects.toThrow(/-32004.*rate limit exceeded/);
    expect(toolCalls).toBe(0);

    const bob = await sdkClient(listener.url, 'token-bob');
    expect(await bob.callTool({ name: 'work', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(toolCalls).toBe(1);

    clock.now += 4000;
    expect((await ping(listener.url, 'token-alice')).status).toBe(200);
  });

  it('refuses before the body is read or the session looked up: a body that never arrives, or is over maxBodyBytes, still gets 429 at once', async () => {
    const listener = await serve({ ...withAuth({ capacity: 1, refillPerSecond: 0.001 }), sessions: true, maxBodyBytes: 1000 });
    // Stateful: this one passed the limiter, had its body read and was refused for want of a session.
    const first = await ping(listener.url, 'token-alice');
    expect([first.status, ((await first.json()) as { error: { data: { code: string } } }).error.data.code]).toEqual([400, 'TYPEMCP_HTTP_SESSION_REQUIRED']);
    const auth = { authorization: 'Bearer token-alice' };
    const noBody = await headOnly(listener.port, '/mcp', { ...auth, 'content-length': '500', 'mcp-session-id': 'no-such-session' });
    expect(noBody).toMatch(/^HTTP\/1\.1 429 /);
    expect(noBody).toMatch(/\r\nRetry-After: 1000\r\n/i);
    const tooLarge = await headOnly(listener.port, '/mcp', { ...auth, 'content-length': String(50 * 1024 * 1024) });
    expect(tooLarge).toMatch(/^HTTP\/1\.1 429 /);
    // The same limit covers the legacy transport's routes.
    const legacy = await headOnly(listener.port, '/messages?sessionId=x', { ...auth, 'content-length': '10' });
    expect(legacy).toMatch(/^HTTP\/1\.1 429 /);
    // Bob is not limited: his head-only request passes the limiter and waits for its body (no answer).
    await expect(headOnly(listener.port, '/mcp', { authorization: 'Bearer token-bob', 'content-length': '10' }, 300)).rejects.toThrow(
      'no answer without the body; got ""',
    );
  });

  it('authenticates first: a bad token is 401, not a spent token of anyone', async () => {
    const listener = await serve(withAuth({ capacity: 1, refillPerSecond: 0.001 }));
    for (let i = 0; i < 3; i++) expect((await ping(listener.url, 'forged')).status).toBe(401);
    expect((await ping(listener.url, 'token-alice')).status).toBe(200);
  });

  it('limits by client address without authentication, or by a key of your own', async () => {
    const byAddress = await serve({ sessions: false, rateLimit: { capacity: 2, refillPerSecond: 0.001, clock: () => clock.now } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await ping(byAddress.url, 'unused')).status);
    expect(statuses).toEqual([200, 200, 429]);

    const keys: string[] = [];
    const store = new MemoryRateLimitStore();
    const byTenant = await serve({
      sessions: false,
      rateLimit: {
        capacity: 1,
        refillPerSecond: 0.001,
        store,
        key: (req) => {
          const tenant = req.headers['x-tenant'];
          if (typeof tenant === 'string') keys.push(tenant);
          return typeof tenant === 'string' ? `tenant:${tenant}` : undefined;
        },
      },
    });
    const tenantPing = (tenant?: string) =>
      fetch(byTenant.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(tenant ? { 'x-tenant': tenant } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }).then((r) => r.status);
    expect([await tenantPing('a'), await tenantPing('a'), await tenantPing('b'), await tenantPing(), await tenantPing()]).toEqual([200, 429, 200, 200, 200]);
    expect(keys).toEqual(['a', 'a', 'b']);
    expect(store.size).toBe(2);
  });

  it('refuses bad options before listening', async () => {
    await expect(serveHttp(buildServer(), { port: 0, rateLimit: { capacity: 0, refillPerSecond: 1 } })).rejects.toMatchObject({ option: 'rateLimit.capacity' });
    await expect(serveHttp(buildServer(), { port: 0, rateLimit: { capacity: 1, refillPerSecond: 1, key: 'x' as never } })).rejects.toMatchObject({
      option: 'rateLimit.key',
    });
  });
});

describe('rateLimit() interceptor over HTTP with the SDK client', () => {
  it('refuses the call with McpError -32004 and data.retryAfterMs, per principal', async () => {
    const server = buildServer([rateLimit({ capacity: 1, refillPerSecond: 0.5, clock: () => clock.now })]);
    const listener = await serve({ auth: { verify: (token) => TOKENS[token] } }, server);
    const alice = await sdkClient(listener.url, 'token-alice');
    const bob = await sdkClient(listener.url, 'token-bob');
    toolCalls = 0;
    await alice.callTool({ name: 'work', arguments: {} });
    const error = (await alice.callTool({ name: 'work', arguments: {} }).catch((e: unknown) => e)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32004);
    expect(error.data).toEqual({ code: 'TYPEMCP_RATE_LIMITED', retryAfterMs: 2000 });
    expect(await bob.callTool({ name: 'work', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(toolCalls).toBe(2);
  });
});
