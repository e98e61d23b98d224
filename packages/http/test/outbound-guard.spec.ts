/**
 * The SSRF guard of outbound requests to URLs someone else chose (guarded-fetch.ts), over real
 * sockets: loopback refused unless allowed, names resolved and checked (localhost), IPv6 forms
 * of internal IPv4 addresses, link-local metadata addresses, redirects re-checked and limited,
 * https verified (an extra CA when configured), body size and time capped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { addressKind } from '../src/outbound/address-guard';
import { guardedGet, guardedJson } from '../src/outbound/guarded-fetch';
import { makeTestTls } from '../../../test/support/tls';

const LIMITS = { timeoutMs: 2000, maxBytes: 4096 };
const LOOPBACK = { allowAddresses: ['loopback'] as const, allowHttp: true };

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  server: Server = createServer(),
): Promise<{ server: Server; port: number }> {
  server.on('request', handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: Error) => `${error.name}: ${error.message}`,
  );

describe('addressKind', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('guardedGet over real sockets', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    ({ server, port } = await listen((req, res) => {
      hits++;
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/doc') return void res.setHeader('content-type', 'application/json').end('{"ok":true}');
      if (url.pathname === '/hop') return void res.writeHead(302, { location: url.searchParams.get('to')! }).end();
      if (url.pathname === '/loop') return void res.writeHead(307, { location: '/loop' }).end();
      if (url.pathname === '/big') return void res.end('x'.repeat(10_000));
      if (url.pathname === '/big-chunked') {
        res.write('['); // no content-length: the cap is counted while reading
        const timer = setInterval(() => res.write('1,'.repeat(500)), 5);
        return void res.on('close', () => clearInterval(timer));
      }
      if (url.pathname === '/slow') return; // never answers
      res.statusCode = 404;
      res.end('{}');
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback by default, by IP and by name, before connecting', async () => {
    const before = hits;
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/doc`, {}, LIMITS, { allowHttp: true }))).toBe(
      'OutboundError: 127.0.0.1 resolves to a loopback address, which this server does not reach',
    );
    expect(await reason(guardedGet(`http://localhost:${port}/doc`, {}, LIMITS, { allowHttp: true }))).toMatch(/localhost resolves to a loopback address/);
    expect(await reason(guardedGet(`http://[::ffff:127.0.0.1]:${port}/doc`, {}, LIMITS, { allowHttp: true }))).toMatch(/loopback address/);
    expect(await reason(guardedGet('http://169.254.169.254/latest/meta-data/', {}, LIMITS, { allowHttp: true }))).toMatch(
      /169\.254\.169\.254 resolves to a link-local address/,
    );
    expect(await reason(guardedGet('http://[fd00::1]/', {}, LIMITS, { allowHttp: true }))).toMatch(/unique-local address/);
    expect(await reason(guardedGet('http://10.0.0.1/', {}, LIMITS, { allowHttp: true, allowAddresses: ['loopback'] }))).toMatch(/private address/);
    expect(hits).toBe(before);
  });

  it('refuses http unless allowed, and URLs with credentials', async () => {
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/doc`, {}, LIMITS, { allowAddresses: ['loopback'] }))).toBe(
      'OutboundError: the URL is not an https URL',
    );
    expect(await reason(guardedGet(`http://u:p@127.0.0.1:${port}/doc`, {}, LIMITS, LOOPBACK))).toMatch(/credentials/);
  });

  it('reaches loopback when allowed, by IP or by name (connected to the address it checked)', async () => {
    expect((await guardedJson(`http://127.0.0.1:${port}/doc`, LIMITS, LOOPBACK)).body).toEqual({ ok: true });
    expect((await guardedJson(`http://localhost:${port}/doc`, LIMITS, LOOPBACK)).body).toEqual({ ok: true });
  });

  it('follows a redirect, checking every hop: a hop to a link-local or private address is refused', async () => {
    const ok = await guardedJson(`http://127.0.0.1:${port}/hop?to=${encodeURIComponent('/doc')}`, LIMITS, LOOPBACK);
    expect([ok.url, ok.body]).toEqual([`http://127.0.0.1:${port}/doc`, { ok: true }]);
    const toMetadata = `http://127.0.0.1:${port}/hop?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`;
    expect(await reason(guardedGet(toMetadata, {}, LIMITS, LOOPBACK))).toMatch(/169\.254\.169\.254 resolves to a link-local address/);
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/hop?to=${encodeURIComponent('file:///etc/passwd')}`, {}, LIMITS, LOOPBACK))).toMatch(
      /not an http\(s\) URL/,
    );
  });

  it('gives up after maxRedirects, and follows none with 0', async () => {
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/loop`, {}, LIMITS, LOOPBACK))).toMatch(/answered 307: more than 3 redirects/);
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/hop?to=%2Fdoc`, {}, LIMITS, { ...LOOPBACK, maxRedirects: 0 }))).toMatch(/more than 0 redirects/);
  });

  it('caps the body, declared or streamed, and the time', async () => {
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/big`, {}, LIMITS, LOOPBACK))).toMatch(/more than 4096 bytes/);
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/big-chunked`, {}, LIMITS, LOOPBACK))).toMatch(/more than 4096 bytes/);
    const started = Date.now();
    expect(await reason(guardedGet(`http://127.0.0.1:${port}/slow`, {}, { ...LIMITS, timeoutMs: 300 }, LOOPBACK))).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('guardedGet over https', () => {
  it('verifies the certificate: refused without the CA, accepted with it', async () => {
    const tls = makeTestTls();
    const { server, port } = await listen((_req, res) => void res.end('{"tls":true}'), createHttpsServer({ key: tls.key, cert: tls.cert }));
    try {
      const guard = { allowAddresses: ['loopback'] as const };
      expect(await reason(guardedGet(`https://localhost:${port}/`, {}, LIMITS, guard))).toMatch(/network or TLS error/);
      expect((await guardedJson(`https://localhost:${port}/`, LIMITS, { ...guard, ca: tls.ca })).body).toEqual({ tls: true });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
