/**
 * Deploying behind a reverse proxy and a load balancer: the server's own URLs from `publicUrl`
 * or trusted forwarded headers (through a real forwarding proxy), liveness and readiness with
 * the application's checks, and the drain a shutdown starts.
 */
import { createServer as createHttpServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthCheck } from '@typemcp/http';
import { buildEngine, initialize, JSON_AND_SSE, post, rawRequest, serve, type Served } from './support/http-fixture';

const AUTH = { verify: () => undefined, protectedResource: { authorization_servers: ['https://as.example.com'] } };

/** A TLS-terminating proxy stand-in: forwards to `target` with the headers such a proxy sets. */
async function forwardingProxy(target: string, forwarded: Record<string, string>): Promise<{ url: string; server: Server }> {
  const server = createHttpServer((req, res) => {
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, ...forwarded } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('public URL behind a reverse proxy', () => {
  const metadata = (base: string, headers: Record<string, string> = {}) =>
    rawRequest(`${base}/.well-known/oauth-protected-resource`, { headers }).then((r) => JSON.parse(r.body) as { resource?: string });
  const challenge = (base: string, headers: Record<string, string> = {}) =>
    rawRequest(`${base}/mcp`, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: '{}' }).then((r) => r.headers['www-authenticate']);

  it('builds the metadata URLs from publicUrl, whatever Host the request carries, and allows its host', async () => {
    const s = await serve({ auth: AUTH, publicUrl: 'https://mcp.example.com/tools/' });
    try {
      expect(await metadata(s.base)).toMatchObject({ resource: 'https://mcp.example.com/tools/mcp' });
      expect(await challenge(s.base, { host: 'mcp.example.com' })).toContain(
        'resource_metadata="https://mcp.example.com/tools/.well-known/oauth-protected-resource"',
      );
    } finally {
      await s.listener.close(0);
    }
    // The legacy SSE endpoint carries the public path prefix the proxy strips.
    const legacy = await serve({ publicUrl: 'https://mcp.example.com/tools/' });
    try {
      const sse = await fetch(`${legacy.base}/sse`, { headers: { accept: 'text/event-stream' } });
      const reader = sse.body!.getReader();
      let seen = '';
      while (!seen.includes('\n\n')) seen += new TextDecoder().decode((await reader.read()).value);
      expect(seen).toMatch(/event: endpoint\ndata: \/tools\/messages\?sessionId=[\w-]+\n/);
      await reader.cancel();
    } finally {
      await legacy.listener.close(0);
    }
  });

  it('with trustProxy, takes X-Forwarded-Proto/-Host through a forwarding proxy; without it, never', async () => {
    const trusting = await serve({ auth: AUTH, trustProxy: true, allowedHosts: ['localhost', '127.0.0.1', 'mcp.example.com'] });
    const untrusting = await serve({ auth: AUTH, allowedHosts: ['localhost', '127.0.0.1', 'mcp.example.com'] });
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mcp.example.com' };
    const viaTrusting = await forwardingProxy(trusting.base, headers);
    const viaUntrusting = await forwardingProxy(untrusting.base, headers);
    try {
      expect(await metadata(viaTrusting.url)).toEqual(expect.objectContaining({ resource: 'https://mcp.example.com/mcp' }));
      expect(await challenge(viaTrusting.url)).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"');
      expect((await metadata(viaUntrusting.url)).resource).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // A forwarded host outside the allow-list is not believed.
      expect((await metadata(trusting.base, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'attacker.example' })).resource).toMatch(
        /^https:\/\/127\.0\.0\.1:\d+\/mcp$/,
      );
    } finally {
      viaTrusting.server.close();
      viaUntrusting.server.close();
      await Promise.all([trusting.listener.close(0), untrusting.listener.close(0)]);
    }
  });

  it('refuses a publicUrl with a query or credentials', async () => {
    await expect(serve({ publicUrl: 'https://u:p@mcp.example.com' })).rejects.toMatchObject({ option: 'publicUrl' });
    await expect(serve({ publicUrl: 'ftp://mcp.example.com' })).rejects.toMatchObject({ option: 'publicUrl' });
  });
});

describe('liveness and readiness', () => {
  let healthy = true;
  const reported: string[] = [];
  const checks: HealthCheck[] = [
    { name: 'database', check: () => (healthy ? Promise.resolve() : Promise.reject(new Error('password=hunter2 connection refused'))) },
    { name: 'slow', timeoutMs: 50, check: () => new Promise((resolve) => setTimeout(resolve, healthy ? 0 : 500)) },
    { name: 'flag', check: () => healthy },
  ];
  let s: Served;
  beforeAll(async () => {
    s = await serve({ readinessChecks: checks, onError: (_e, where) => reported.push(where) });
  });
  afterAll(() => s.listener.close(0));
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(`${s.base}${path}`, { headers });

  it('answers 200 with every check while they pass, 503 naming the failed ones (no error text), and back', async () => {
    healthy = true;
    let res = await get('/readyz');
    expect([res.status, JSON.parse(res.body)]).toEqual([200, { status: 'ready', checks: { database: 'ok', slow: 'ok', flag: 'ok' } }]);
    healthy = false;
    res = await get('/readyz');
    expect([res.status, JSON.parse(res.body)]).toEqual([503, { status: 'not ready', checks: { database: 'failed', slow: 'timeout', flag: 'failed' } }]);
    expect(res.body).not.toContain('hunter2');
    expect(res.headers['cache-control']).toBe('no-store');
    await get('/readyz');
    // Each check that started failing is reported once, not at every probe.
    expect(reported.sort()).toEqual(['readiness database', 'readiness flag', 'readiness slow']);
    expect((await get('/livez')).status).toBe(200);
    healthy = true;
    expect((await get('/readyz')).status).toBe(200);
  });

  it('answers probes addressed by IP or any Host (the kubelet), while MCP routes keep the Host check', async () => {
    expect((await get('/livez', { host: '10.0.0.7:3000' })).status).toBe(200);
    expect((await get('/readyz', { host: '10.0.0.7:3000' })).status).toBe(200);
    expect((await get('/health', { host: '10.0.0.7:3000' })).status).toBe(403);
  });
});

describe('readiness of the authorization server a token check depends on', () => {
  it('is 503 while the JWKS or the introspection endpoint cannot be reached, 200 once they answer', async () => {
    let up = false;
    const as = createHttpServer((req, res) => {
      if (!up) return void res.writeHead(502).end();
      if (req.url === '/jwks') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      // An introspection endpoint refuses a caller without credentials: that still is an answer.
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
    });
    await new Promise<void>((resolve) => as.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
    const jwt = await serve({ auth: { jwt: { issuer: base, jwksUri: `${base}/jwks` } }, onError: () => {} });
    const introspected = await serve({ auth: { introspection: { endpoint: `${base}/introspect`, clientId: 'rs', clientSecret: 's' } }, onError: () => {} });
    const readyz = async (s: Served) => {
      const res = await fetch(`${s.base}/readyz`);
      return [res.status, ((await res.json()) as { checks: object }).checks];
    };
    try {
      expect(await readyz(jwt)).toEqual([503, { jwks: 'failed' }]);
      expect(await readyz(introspected)).toEqual([503, { introspection: 'failed' }]);
      up = true;
      expect(await readyz(jwt)).toEqual([200, { jwks: 'ok' }]);
      expect(await readyz(introspected)).toEqual([200, { introspection: 'ok' }]);
    } finally {
      await Promise.all([jwt.listener.close(0), introspected.listener.close(0)]);
      as.close();
    }
  });
});

describe('drain', () => {
  it('turns readiness 503 at once, refuses new sessions with 503 and Retry-After, and keeps serving open ones', async () => {
    const engine = buildEngine();
    const { serveHttp } = await import('@typemcp/http');
    const listener = await serveHttp(engine, { port: 0, keepAliveMs: 0, drainMs: 300, handleSignals: false });
    const base = listener.url.replace(/\/mcp$/, '');
    try {
      const { sessionId } = await initialize(listener.url);
      const started = Date.now();
      const closed = listener.shutdown();
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: 'draining', checks: {} }]);
      expect((await fetch(`${base}/livez`)).status).toBe(200);
      const refused = await post(listener.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_DRAINING' } } });
      const served = await post(
        listener.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } },
        {
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
      );
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('still here');
      await closed;
      // The listener stayed open for the drain period, then closed.
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      await expect(fetch(`${base}/livez`)).rejects.toThrow();
    } finally {
      await listener.close(0);
    }
  });
});
