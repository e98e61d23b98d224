/**
 * Security on every route: Host and Origin allow-lists (403), bearer authentication (401 with
 * WWW-Authenticate), sessions bound to their principal, and the RFC 9728 metadata document.
 */
import { createServer, getMetadataStorage, McpService, Tool } from '@typemcp/core';
import { serveHttp } from '@typemcp/http';
import { call, errorBody, initialize, JSON_AND_SSE, messagesOf, parseSse, post, rawRequest, serve, SseReader, type Served } from './support/http-fixture';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('Host and Origin (DNS rebinding)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(() => s.listener.close(0));

  const raw = (path: string, headers: Record<string, string>, method = 'POST') =>
    rawRequest(`${s.base}${path}`, { method, headers: { ...JSON_AND_SSE, ...headers }, body: method === 'POST' ? INIT : undefined });

  it.each([
    ['evil Host and Origin', { host: 'evil.example.com', origin: 'http://evil.example.com' }, 'TYPEMCP_HTTP_FORBIDDEN_HOST'],
    ['evil Host with a port', { host: 'evil.example.com:3000' }, 'TYPEMCP_HTTP_FORBIDDEN_HOST'],
    ['good Host, evil Origin', { origin: 'http://evil.example.com' }, 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN'],
    ['good Host, opaque Origin', { origin: 'null' }, 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN'],
  ])('refuses %s with 403 and a JSON-RPC error on every route', async (_what, headers, code) => {
    for (const [path, method] of [
      ['/mcp', 'POST'],
      ['/mcp', 'GET'],
      ['/mcp', 'DELETE'],
      ['/sse', 'GET'],
      ['/messages?sessionId=x', 'POST'],
      ['/health', 'GET'],
    ]) {
      const res = await raw(path, headers, method);
      expect([path, res.status]).toEqual([path, 403]);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code } } });
    }
  });

  it.each([
    ['localhost with a port', { host: 'localhost:1234', origin: 'http://localhost:5173' }],
    ['127.0.0.1', { host: '127.0.0.1', origin: 'https://127.0.0.1' }],
    ['[::1] with a port', { host: '[::1]:80', origin: 'http://[::1]:8080' }],
    ['no Origin (a non-browser client)', { host: 'localhost' }],
  ])('accepts %s', async (_what, headers) => {
    const res = await raw('/mcp', headers);
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeDefined();
  });

  it('takes configured allow-lists (host names, host:port, full origins) and can turn checks off', async () => {
    const custom = await serve({ allowedHosts: ['mcp.example.com', 'localhost:9'], allowedOrigins: ['https://app.example.com', 'tools.example.com'] });
    const open = await serve({ allowedHosts: false, allowedOrigins: false });
    try {
      const at = (srv: Served, headers: Record<string, string>) =>
        rawRequest(srv.url, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: INIT }).then((r) => r.status);
      expect(await at(custom, { host: 'mcp.example.com:443', origin: 'https://app.example.com' })).toBe(200);
      expect(await at(custom, { host: 'localhost:9', origin: 'http://tools.example.com:81' })).toBe(200);
      expect(await at(custom, { host: 'localhost:10' })).toBe(403);
      expect(await at(custom, { host: 'mcp.example.com', origin: 'http://app.example.com' })).toBe(403);
      expect(await at(custom, { host: 'mcp.example.com', origin: 'http://localhost' })).toBe(403);
      expect(await at(open, { host: 'anything.example', origin: 'http://evil.example.com' })).toBe(200);
    } finally {
      await Promise.all([custom.listener.close(0), open.listener.close(0)]);
    }
  });

  it('binds to 127.0.0.1 by default, and refuses to bind elsewhere without a Host allow-list', async () => {
    expect(s.listener.host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::']) {
      await expect(serve({ host })).rejects.toMatchObject({
        code: 'TYPEMCP_ERR_INVALID_OPTION',
        option: 'allowedHosts',
        message: expect.stringContaining(`binds ${host}, not a loopback address`),
      });
    }
    const listed = await serve({ host: '0.0.0.0', allowedHosts: ['mcp.example.com'] });
    const any = await serve({ host: '0.0.0.0', allowedHosts: ['*'] });
    try {
      const at = (srv: Served, headers: Record<string, string>) =>
        rawRequest(`http://127.0.0.1:${srv.listener.port}/mcp`, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: INIT });
      expect((await at(listed, { host: 'mcp.example.com' })).status).toBe(200);
      // A rebinding attacker's name is refused even though the server listens on every interface.
      expect(JSON.parse((await at(listed, { host: 'attacker.example' })).body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_FORBIDDEN_HOST' } } });
      expect((await at(any, { host: 'anything.example' })).status).toBe(200);
      // Origin keeps its loopback default.
      expect((await at(any, { origin: 'https://evil.example.com' })).status).toBe(403);
    } finally {
      await Promise.all([listed.listener.close(0), any.listener.close(0)]);
    }
  });
});

describe('bearer authentication', () => {
  const users: Record<string, { sub: string; roles: string[] }> = {
    alice: { sub: 'alice', roles: ['a', 'b'] },
    'alice-again': { roles: ['a', 'b'], sub: 'alice' },
    bob: { sub: 'bob', roles: [] },
  };
  let s: Served;
  beforeAll(async () => {
    s = await serve({
      auth: {
        verify: async (token) => {
          if (token === 'broken') throw new Error('verifier down');
          return users[token];
        },
        protectedResource: { authorization_servers: ['https://auth.example.com'], scopes_supported: ['mcp'] },
      },
    });
  });
  afterAll(() => s.listener.close(0));

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers a missing token with 401 and WWW-Authenticate: Bearer resource_metadata=... on every MCP route', async () => {
    for (const [path, method] of [
      ['/mcp', 'POST'],
      ['/mcp', 'GET'],
      ['/mcp', 'DELETE'],
      ['/sse', 'GET'],
      ['/messages?sessionId=x', 'POST'],
    ]) {
      const res = await fetch(`${s.base}${path}`, { method, headers: JSON_AND_SSE, body: method === 'POST' ? INIT : undefined });
      expect([path, method, res.status]).toEqual([path, method, 401]);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.base}/.well-known/oauth-protected-resource"`);
      expect((await errorBody(res)).error.data.code).toBe('TYPEMCP_HTTP_MISSING_TOKEN');
    }
  });

  it('answers a refused token (undefined or a throw) with 401 and error="invalid_token"', async () => {
    for (const token of ['mallory', 'broken']) {
      const res = await post(s.url, INIT, bearer(token));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${s.base}/.well-known/oauth-protected-resource", error_description="the bearer token is invalid or expired"`,
      );
    }
    expect((await post(s.url, INIT, { authorization: 'Basic YWxpY2U6eA==' })).status).toBe(401);
  });

  it('answers a bad token with 401 and error="invalid_token" on every MCP route', async () => {
    for (const [path, method] of [
      ['/mcp', 'POST'],
      ['/mcp', 'GET'],
      ['/mcp', 'DELETE'],
      ['/sse', 'GET'],
      ['/messages?sessionId=x', 'POST'],
    ]) {
      const res = await fetch(`${s.base}${path}`, { method, headers: { ...JSON_AND_SSE, ...bearer('mallory') }, body: method === 'POST' ? INIT : undefined });
      expect([path, method, res.status]).toEqual([path, method, 401]);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${s.base}/.well-known/oauth-protected-resource", error_description="the bearer token is invalid or expired"`,
      );
      expect((await errorBody(res)).error.code).toBe(-32000);
    }
  });

  it('binds a legacy HTTP+SSE session to its principal: another principal posting to its /messages gets 404', async () => {
    const stream = await fetch(`${s.base}/sse`, { headers: { accept: 'text/event-stream', ...bearer('alice') } });
    const reader = new SseReader(stream);
    const endpoint = `${s.base}${(await reader.next())!.data!}`;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const hijack = await fetch(endpoint, { method: 'POST', headers: { ...JSON_AND_SSE, ...bearer('bob') }, body: ping });
    expect(hijack.status).toBe(404);
    expect((await errorBody(hijack)).error.data.code).toBe('TYPEMCP_HTTP_SESSION_NOT_FOUND');
    expect((await fetch(endpoint, { method: 'POST', headers: { ...JSON_AND_SSE, ...bearer('alice-again') }, body: ping })).status).toBe(202);
    expect(await reader.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await reader.cancel();
  });

  it("gives nothing of another principal's stream to a replay with its Last-Event-ID", async () => {
    const a = await initialize(s.url, '2025-11-25', bearer('alice'));
    const b = await initialize(s.url, '2025-11-25', bearer('bob'));
    // The server closes alice's request stream mid-call: her result waits in the event store.
    const { events } = await call(s.url, a.sessionId, 1, 'tools/call', { name: 'reconnect' }, bearer('alice'));
    await new Promise((r) => setTimeout(r, 80));
    const lastEventId = events[0].id!;
    // Bob on his own session, and bob naming alice's session: neither yields her events.
    const onOwn = await fetch(s.url, {
      headers: { ...bearer('bob'), accept: 'text/event-stream', 'mcp-session-id': b.sessionId, 'last-event-id': lastEventId },
    });
    expect(onOwn.status).toBe(400);
    expect(await onOwn.text()).not.toContain('closed=');
    const onHers = await fetch(s.url, {
      headers: { ...bearer('bob'), accept: 'text/event-stream', 'mcp-session-id': a.sessionId, 'last-event-id': lastEventId },
    });
    expect(onHers.status).toBe(404);
    expect(await onHers.text()).not.toContain('closed=');
    // Alice still gets it.
    const own = await fetch(s.url, {
      headers: { ...bearer('alice'), accept: 'text/event-stream', 'mcp-session-id': a.sessionId, 'last-event-id': lastEventId },
    });
    expect(messagesOf(parseSse(await own.text()))).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'closed=true' }] } }]);
  });

  it('serves /health and the RFC 9728 document without a token', async () => {
    expect(await (await fetch(`${s.base}/health`)).json()).toEqual({ status: 'ok' });
    const doc = await fetch(`${s.base}/.well-known/oauth-protected-resource`);
    expect(doc.status).toBe(200);
    expect(await doc.json()).toEqual({
      resource: s.url,
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp'],
    });
    expect((await fetch(`${s.base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200);
  });

  it('gives the principal to the engine session and binds the session to it (another principal gets 404)', async () => {
    const { sessionId } = await initialize(s.url, '2025-11-25', bearer('alice'));
    const whoami = await call(s.url, sessionId, 1, 'tools/call', { name: 'whoami' }, bearer('alice'));
    expect(JSON.parse((messagesOf(whoami.events)[0].result as { content: { text: string }[] }).content[0].text)).toEqual(users.alice);
    // The same principal by value (keys in another order) is the same principal.
    expect((await call(s.url, sessionId, 2, 'ping', {}, bearer('alice-again'))).res.status).toBe(200);
    const hijack = await post(
      s.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami' } },
      { ...bearer('bob'), 'mcp-session-id': sessionId },
    );
    expect(hijack.status).toBe(404);
    const stream = await fetch(s.url, { headers: { ...bearer('bob'), 'mcp-session-id': sessionId, accept: 'text/event-stream' } });
    expect(stream.status).toBe(404);
    expect((await fetch(s.url, { method: 'DELETE', headers: { ...bearer('bob'), 'mcp-session-id': sessionId } })).status).toBe(404);
    expect((await call(s.url, sessionId, 4, 'ping', {}, bearer('alice'))).res.status).toBe(200);
  });

  it('uses a configured resource_metadata URL and samePrincipal', async () => {
    const custom = await serve({
      auth: {
        verify: (token) => ({ sub: token.split('.')[0], session: token }),
        resourceMetadataUrl: 'https://mcp.example.com/prm',
        samePrincipal: (a, b) => (a as { sub: string }).sub === (b as { sub: string }).sub,
      },
    });
    try {
      const res = await post(custom.url, INIT);
      expect(res.headers.get('www-authenticate')).toBe('Bearer resource_metadata="https://mcp.example.com/prm"');
      const { sessionId } = await initialize(custom.url, '2025-11-25', bearer('carol.1'));
      expect((await call(custom.url, sessionId, 1, 'ping', {}, bearer('carol.2'))).res.status).toBe(200);
      expect((await post(custom.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { ...bearer('dave.1'), 'mcp-session-id': sessionId })).status).toBe(404);
      expect((await fetch(`${custom.base}/.well-known/oauth-protected-resource`)).status).toBe(404);
    } finally {
      await custom.listener.close(0);
    }
  });
  it("calls a class-based auth provider's samePrincipal on the provider (its `this`), as it calls verify", async () => {
    class TenantAuth {
      private readonly claim = 'sub';
      verify(token: string) {
        return { [this.claim]: token.split('.')[0], session: token };
      }
      samePrincipal(a: unknown, b: unknown) {
        return (a as Record<string, unknown>)[this.claim] === (b as Record<string, unknown>)[this.claim];
      }
    }
    const custom = await serve({ auth: new TenantAuth() });
    try {
      const { sessionId } = await initialize(custom.url, '2025-11-25', bearer('erin.1'));
      expect((await call(custom.url, sessionId, 1, 'ping', {}, bearer('erin.2'))).res.status).toBe(200);
      expect((await post(custom.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { ...bearer('frank.1'), 'mcp-session-id': sessionId })).status).toBe(404);
    } finally {
      await custom.listener.close(0);
    }
  });
});

describe('tool guards over HTTP', () => {
  afterEach(() => getMetadataStorage().reset());

  it('hides a @Tool({ guard }) tool from one principal (absent from tools/list, refused by tools/call) and serves it to another', async () => {
    getMetadataStorage().reset();
    @McpService()
    class Admin {
      @Tool({ description: 'Admins only', guard: (p) => (p as { role?: string } | undefined)?.role === 'admin' })
      purge() {
        return 'purged';
      }

      @Tool({ description: 'Anyone' })
      hello() {
        return 'hello';
      }
    }
    void Admin;
    const principals: Record<string, { sub: string; role: string }> = { ann: { sub: 'ann', role: 'admin' }, uma: { sub: 'uma', role: 'user' } };
    const listener = await serveHttp(createServer({ name: 'guarded', version: '1' }), {
      port: 0,
      keepAliveMs: 0,
      auth: { verify: (token) => principals[token] },
    });
    try {
      const as = async (token: string) => {
        const headers = { authorization: `Bearer ${token}` };
        const { sessionId } = await initialize(listener.url, '2025-11-25', headers);
        const list = messagesOf((await call(listener.url, sessionId, 1, 'tools/list', {}, headers)).events)[0];
        const purge = messagesOf((await call(listener.url, sessionId, 2, 'tools/call', { name: 'purge' }, headers)).events)[0];
        return { tools: (list.result as { tools: { name: string }[] }).tools.map((t) => t.name).sort(), purge };
      };
      const uma = await as('uma');
      expect(uma.tools).toEqual(['hello']);
      expect(uma.purge).toMatchObject({ id: 2, error: { code: -32602 } });
      expect(JSON.stringify(uma.purge)).not.toContain('purged');
      const ann = await as('ann');
      expect(ann.tools).toEqual(['hello', 'purge']);
      expect(ann.purge).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'purged' }] } });
    } finally {
      await listener.close(0);
    }
  });
});

describe('body limit', () => {
  // /mcp is covered in streamable-http.spec.ts (declared and chunked); this is the legacy POST endpoint.
  it('answers a body over maxBodyBytes on /messages with 413, and the session keeps serving', async () => {
    const small = await serve({ maxBodyBytes: 1024 });
    try {
      const stream = await fetch(`${small.base}/sse`, { headers: { accept: 'text/event-stream' } });
      const reader = new SseReader(stream);
      const endpoint = `${small.base}${(await reader.next())!.data!}`;
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
      const res = await fetch(endpoint, { method: 'POST', headers: JSON_AND_SSE, body: big });
      expect(res.status).toBe(413);
      expect((await errorBody(res)).error.data.code).toBe('TYPEMCP_HTTP_PAYLOAD_TOO_LARGE');
      const ok = await fetch(endpoint, { method: 'POST', headers: JSON_AND_SSE, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
      expect(ok.status).toBe(202);
      expect(await reader.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      await reader.cancel();
    } finally {
      await small.listener.close(0);
    }
  });
});
