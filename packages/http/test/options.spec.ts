/**
 * HTTP options are checked before anything listens: each bad value throws (or rejects with)
 * TYPEMCP_ERR_INVALID_OPTION naming it, including options a custom session store would ignore.
 */
import { createServer as createNetServer } from 'node:net';
import { ProtocolServer } from '@typemcp/protocol';
import { createMcpExpressApp, HTTP_DEFAULTS, MemorySessionStore, serveHttp, type ServeHttpOptions } from '@typemcp/http';

const engine = () => new ProtocolServer({ serverInfo: { name: 'opts', version: '1.0.0' } });

const bad: [string, Record<string, unknown>][] = [
  ['port', { port: -1 }],
  ['port', { port: 70_000 }],
  ['port', { port: '3000' }],
  ['host', { host: '' }],
  ['path', { path: 'mcp' }],
  ['maxBodyBytes', { maxBodyBytes: 0 }],
  ['maxBodyBytes', { maxBodyBytes: 1.5 }],
  ['idleTimeoutMs', { idleTimeoutMs: 0 }],
  ['idleTimeoutMs', { idleTimeoutMs: 2 ** 40 }],
  ['maxSessions', { maxSessions: 0 }],
  ['maxSessions', { maxSessions: 2.5 }],
  ['retryMs', { retryMs: -1 }],
  ['keepAliveMs', { keepAliveMs: -5 }],
  ['graceMs', { graceMs: Number.NaN }],
  ['idleTimeoutMs', { idleTimeoutMs: 1000, sessionStore: new MemorySessionStore() }],
  ['maxSessions', { maxSessions: 10, sessionStore: new MemorySessionStore() }],
  ['sessionStore', { sessionStore: {} }],
  ['eventStore', { eventStore: true }],
  ['allowedHosts', { allowedHosts: 'localhost' }],
  ['allowedOrigins', { allowedOrigins: [''] }],
  ['auth', { auth: {} }],
  ['auth.verify', { auth: { verify: 'yes' } }],
  ['auth.jwt.algorithms', { auth: { jwt: { jwksUri: 'https://as.example.com/jwks', issuer: 'https://as.example.com', algorithms: ['HS256'] } } }],
  ['legacySse', { legacySse: 'no' }],
  ['sessions', { sessions: 0 }],
  ['onError', { onError: 'stderr' }],
];

/** A port nothing listens on now (taken and released). */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('HTTP options', () => {
  it.each(bad)('serveHttp refuses a bad %s (%j) without listening', async (option, given) => {
    const port = typeof given.port === 'number' && given.port >= 0 && given.port <= 65_535 ? given.port : await freePort();
    await expect(serveHttp(engine(), { port, ...given } as ServeHttpOptions)).rejects.toMatchObject({
      code: 'TYPEMCP_ERR_INVALID_OPTION',
      option,
      message: expect.stringContaining(`"${option}"`),
    });
    // Nothing was left listening on the port.
    const probe = createNetServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  it.each(bad.filter(([option]) => option !== 'port'))('createMcpExpressApp refuses a bad %s (%j)', (option, given) => {
    expect(() => createMcpExpressApp(engine(), given)).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option }));
  });

  it.each([
    ['idleTimeoutMs', { idleTimeoutMs: -1 }],
    ['maxSessions', { maxSessions: 0 }],
    ['sweepIntervalMs', { sweepIntervalMs: 0 }],
  ])('MemorySessionStore refuses a bad %s', (option, given) => {
    expect(() => new MemorySessionStore(given)).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option }));
  });

  it('states its defaults in one frozen table', () => {
    expect(Object.isFrozen(HTTP_DEFAULTS)).toBe(true);
    expect(HTTP_DEFAULTS).toMatchObject({ host: '127.0.0.1', path: '/mcp' });
  });
});
