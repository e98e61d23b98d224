/**
 * serveHttp serves its Streamable HTTP endpoint without express's router (the same handlers on
 * node's request and response) and gives every other path to the express app. Both routes to the
 * endpoint answer alike: the exact path (with a query string), and what only express matches (a
 * trailing slash, another letter case), with and without `log` (which keeps express for all).
 */
import { initialize, messagesOf, parseSse, post, serve, type Served } from './support/http-fixture';

describe.each([
  ['own routing', {}],
  ['express for every request (log: true)', { log: true }],
])('the Streamable HTTP endpoint with %s', (_name, options) => {
  let s: Served;
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  beforeAll(async () => {
    s = await serve(options);
  });
  afterAll(async () => {
    await s.listener.close(0);
    stderr.mockRestore();
  });

  it.each(['/mcp', '/mcp?trace=1', '/mcp/', '/MCP'])('answers a session at %s', async (path) => {
    const url = `${s.base}${path}`;
    const { sessionId } = await initialize(url, '2025-06-18');
    const res = await post(
      url,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: path } } },
      { 'mcp-session-id': sessionId },
    );
    expect(res.status).toBe(200);
    expect(messagesOf(parseSse(await res.text()))).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: path }] } }]);
  });

  it('refuses what the endpoint refuses, with its own error body, and 404s other paths', async () => {
    const wrongMethod = await fetch(s.url, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST, DELETE');
    const missing = await fetch(`${s.base}/nowhere`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { data: { code: string } } }).error.data.code).toBe('TYPEMCP_HTTP_NOT_FOUND');
  });
});
