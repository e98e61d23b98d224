/** CORS on the MCP routes: only allowed origins get headers; preflights are answered before auth. */
import { JSON_AND_SSE, serve, type Served } from './support/http-fixture';

let s: Served;
beforeAll(async () => {
  s = await serve({ auth: { verify: (token) => (token === 'good' ? { user: 'ann' } : undefined) } });
});
afterAll(() => s.listener.close(0));

const preflight = (path: string, origin: string) =>
  fetch(`${s.base}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-session-id' },
  });

describe('CORS', () => {
  it.each(['/mcp', '/sse', '/messages'])('answers a preflight on %s from an allowed origin with 204, without credentials', async (path) => {
    const res = await preflight(path, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    expect(res.headers.get('access-control-allow-methods')).toBeTruthy();
  });

  it('refuses a preflight from a foreign origin with 403 and no CORS headers', async () => {
    const res = await preflight('/mcp', 'http://evil.example.com');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('exposes Mcp-Session-Id to an allowed browser origin on the real request', async () => {
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, Authorization: 'Bearer good', Origin: 'http://127.0.0.1:5173' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.body?.cancel();
  });

  it('still requires credentials on the real request', async () => {
    const res = await fetch(s.url, { method: 'POST', headers: { ...JSON_AND_SSE, Origin: 'http://localhost:5173' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});
