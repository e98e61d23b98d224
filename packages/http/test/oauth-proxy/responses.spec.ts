/** responses.ts over a real express response: redirects to the client carry iss (RFC 9207), cookies their attributes. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { cookie, redirectToClient } from '../../src/oauth-proxy/responses';

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.get('/code', (_req, res) => redirectToClient(res, 'https://mcp.example.com', 'https://app.example.com/cb?keep=1', { code: 'c1', state: 's1' }));
  app.get('/error', (_req, res) => redirectToClient(res, 'https://mcp.example.com', 'http://127.0.0.1:9/cb', { error: 'access_denied', state: undefined }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OAuth proxy part: responses', () => {
  it('adds iss to a code, keeps the redirect URI’s own query, and is never cached', async () => {
    const res = await fetch(`${base}/code`, { redirect: 'manual' });
    expect([res.status, res.headers.get('cache-control')]).toEqual([303, 'no-store']);
    const location = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({ keep: '1', code: 'c1', state: 's1', iss: 'https://mcp.example.com' });
  });

  it('adds iss to an error too, and leaves out what is undefined', async () => {
    const location = new URL((await fetch(`${base}/error`, { redirect: 'manual' })).headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', iss: 'https://mcp.example.com' });
  });

  it('makes HttpOnly, SameSite=Lax cookies, Secure on https', () => {
    expect(cookie(true, '__Host-x', 'v', 60.9)).toBe('__Host-x=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
    expect(cookie(false, 'x', '', 0)).toBe('x=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
