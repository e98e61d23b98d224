/**
 * Where `auth.jwt` gets its keys, and what a rotated key costs a client. With only `issuer`, the
 * JWKS is found through the issuer's metadata: oidc-provider (JWKS at /jwks) and a Keycloak-shaped
 * issuer with a path (JWKS at {issuer}/protocol/openid-connect/certs), neither at the
 * /.well-known/jwks.json an older README guessed. The discovery fetch is bounded like every
 * outbound request (no redirect, time and size limits, the issuer checked) and cached. A token
 * signed with a freshly rotated key is accepted at once, inside the JWKS cool-down too, and a
 * flood of made-up kids costs the issuer one fetch per cool-down.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { metadataUrl } from '../src/outbound/issuer-metadata';
import { post, serve, type Served } from './support/http-fixture';
import { startPathIssuer, type PathIssuer } from './support/path-issuer';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

/** One initialize with `token`: status, headers and body. */
async function attempt(url: string, token: string) {
  const res = await post(url, INIT, { authorization: `Bearer ${token}` });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), challenge: res.headers.get('www-authenticate'), body: await res.text() };
}

const reports: string[] = [];
const servers: Served[] = [];
async function protect(jwt: Record<string, unknown>): Promise<Served> {
  const served = await serve({
    auth: { jwt: jwt as never },
    onError: (e, where) => reports.push(`${where}: ${(e as Error).message} ${String((e as Error).cause)}`),
  });
  servers.push(served);
  return served;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.listener.close(0)));
  reports.length = 0;
});

describe('the JWKS of an oidc-provider issuer', () => {
  let op: OidcProvider;
  beforeAll(async () => {
    op = await startOidcProvider();
  }, 30_000);
  afterAll(() => op?.close());

  const served = (path: string) => op.seen.filter((r) => r.path.split('?')[0] === path).length;

  it('is discovered from the issuer alone (jwks_uri of its OpenID metadata), once, and cached', async () => {
    const s = await protect({ issuer: op.issuer });
    await op.addResource(s.url, { scope: 'notes:read' });
    const before = { metadata: served('/.well-known/openid-configuration'), jwks: (await op.counters()).jwks };
    expect((await attempt(s.url, await op.clientCredentialsToken({ resource: s.url, scope: 'notes:read' }))).status).toBe(200);
    expect((await attempt(s.url, await op.clientCredentialsToken({ resource: s.url, scope: 'notes:read' }))).status).toBe(200);
    expect(served('/.well-known/openid-configuration') - before.metadata).toBe(1);
    expect((await op.counters()).jwks - before.jwks).toBe(1);
    expect(served('/.well-known/jwks.json')).toBe(0);
    // The metadata the server publishes names the issuer it discovered from.
    const prm = (await (await fetch(`${s.base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(prm.authorization_servers).toEqual([op.issuer]);
  });

  it('accepts a token signed with a freshly rotated key at once, inside the default 30 s cool-down', async () => {
    const s = await protect({ issuer: op.issuer });
    await op.addResource(s.url, { scope: 'notes:read' });
    const token = () => op.clientCredentialsToken({ resource: s.url, scope: 'notes:read' });
    expect((await attempt(s.url, await token())).status).toBe(200);
    const fetched = (await op.counters()).jwks;
    const kid = await op.rotateKeys();
    const rotated = await token();
    expect(kidOf(rotated)).toBe(kid);
    // Several requests at once with the new key: one JWKS fetch serves them all.
    const answers = await Promise.all([1, 2, 3, 4].map(() => attempt(s.url, rotated)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await op.counters()).jwks - fetched).toBe(1);
    expect(reports).toEqual([]);
  });
});

describe('the JWKS of a Keycloak-shaped issuer (a path issuer)', () => {
  let idp: PathIssuer;
  beforeEach(async () => {
    idp = await startPathIssuer('acme');
  });
  afterEach(() => idp.close());

  const claims = (s: Served, extra: Record<string, unknown> = {}) => ({ aud: s.url, sub: 'alice', exp: Math.floor(Date.now() / 1000) + 60, ...extra });
  const certs = () => idp.hits.get(new URL(idp.jwksUri).pathname) ?? 0;

  it('is found at {issuer}/.well-known/openid-configuration, else through RFC 8414 (path inserted after /.well-known)', async () => {
    const s = await protect({ issuer: idp.issuer });
    expect((await attempt(s.url, await idp.sign(claims(s)))).status).toBe(200);
    expect(idp.hits.get('/realms/acme/.well-known/openid-configuration')).toBe(1);
    expect(certs()).toBe(1);

    const openid = '/realms/acme/.well-known/openid-configuration';
    idp.routes.set('/.well-known/oauth-authorization-server/realms/acme', idp.routes.get(openid)!);
    idp.routes.delete(openid);
    const rfc8414 = await protect({ issuer: idp.issuer });
    expect((await attempt(rfc8414.url, await idp.sign(claims(rfc8414)))).status).toBe(200);
    expect(idp.hits.get('/.well-known/oauth-authorization-server/realms/acme')).toBe(1);
  });

  it('answers 503 (reported, the token kept out) when the metadata names another issuer, redirects, or is too large; then retries', async () => {
    const openid = '/realms/acme/.well-known/openid-configuration';
    const serveMetadata = idp.routes.get(openid)!;
    const s = await protect({ issuer: idp.issuer, jwksTimeoutMs: 1000 });
    const token = await idp.sign(claims(s));

    idp.routes.set(openid, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...idp.metadata(), issuer: 'http://evil.test' })),
    );
    const foreign = await attempt(s.url, token);
    expect([foreign.status, foreign.retryAfter]).toEqual([503, '5']);
    expect(reports.join('\n')).toMatch(/names another issuer/);

    let followed = 0;
    const elsewhere: Server = createServer(
      (_req, res) => (followed++, res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(idp.metadata()))),
    );
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      idp.routes.set(openid, (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/` }).end());
      expect((await attempt(s.url, token)).status).toBe(503);
      expect(followed).toBe(0);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }

    idp.routes.set(openid, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...idp.metadata(), pad: 'x'.repeat(70_000) })),
    );
    expect((await attempt(s.url, token)).status).toBe(503);
    expect(reports.join('\n')).toMatch(/more than 65536 bytes/);
    expect(reports.join('\n')).not.toContain(token);

    // A failed discovery is not cached: once the metadata is right again, so is the answer.
    idp.routes.set(openid, serveMetadata);
    expect((await attempt(s.url, token)).status).toBe(200);
  });

  it('refuses a jwks_uri that downgrades an https issuer, and options that cannot be discovered from', async () => {
    // The downgrade check is on the metadata member; an http issuer may name http keys (local development).
    expect(() => metadataUrl({ jwks_uri: 'http://keys.example.com/certs' }, 'jwks_uri', 'https://login.example.com')).toThrow(/not https/);
    expect(metadataUrl({ jwks_uri: 'https://keys.example.com/certs' }, 'jwks_uri', 'https://login.example.com')).toBe('https://keys.example.com/certs');
    expect(metadataUrl({ jwks_uri: idp.jwksUri }, 'jwks_uri', idp.issuer)).toBe(idp.jwksUri);
    for (const [jwt, option] of [
      [{ issuer: [idp.issuer, 'https://other.example.com'] }, 'auth.jwt.issuer'],
      [{ issuer: 'not a url' }, 'auth.jwt.issuer'],
    ] as const) {
      await expect(protect(jwt)).rejects.toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option });
    }
  });

  it('after a rotation: the new key at once; a second rotation inside the cool-down a retryable 503, then 200; made-up kids one fetch', async () => {
    const s = await protect({ issuer: idp.issuer, jwksCooldownMs: 2000 });
    expect((await attempt(s.url, await idp.sign(claims(s)))).status).toBe(200);
    await idp.rotate();
    expect((await attempt(s.url, await idp.sign(claims(s)))).status).toBe(200);
    expect(certs()).toBe(2);

    // Rotated again within the cool-down: the token is newer than the keys, so 503 + Retry-After, not a 401 (no sign-in again).
    await idp.rotate();
    const newer = await idp.sign(claims(s));
    const early = await attempt(s.url, newer);
    expect(early.status).toBe(503);
    expect(Number(early.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(early.retryAfter)).toBeLessThanOrEqual(2);
    expect(JSON.parse(early.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_AUTH_UNAVAILABLE' } } });
    expect(reports).toEqual([]); // nothing failed: not an error to report
    expect(certs()).toBe(2);
    await sleep(Number(early.retryAfter) * 1000);
    expect((await attempt(s.url, newer)).status).toBe(200);
    expect(certs()).toBe(3);

    // Kids nobody publishes: tokens issued before the last fetch are 401 at once; at most one fetch for the burst.
    const issuedBefore = Math.floor(Date.now() / 1000) - 30;
    for (let i = 0; i < 5; i++) {
      const bogus = await idp.sign(claims(s, { iat: issuedBefore }), `made-up-${i}`);
      const refused = await attempt(s.url, bogus);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toMatch(/error="invalid_token".*key the issuer does not publish/);
    }
    expect(certs()).toBeLessThanOrEqual(4);
    // A token claiming another issuer never makes the server fetch anything.
    const fetched = certs();
    const foreign = await idp.sign(claims(s, { iss: 'http://127.0.0.1:1/elsewhere' }), 'made-up-foreign');
    expect((await attempt(s.url, foreign)).challenge).toMatch(/iss claim/);
    expect(certs()).toBe(fetched);
  });

  it('answers 503 with Retry-After (reported) when the JWKS cannot be fetched again for a rotated key', async () => {
    const s = await protect({ issuer: idp.issuer });
    expect((await attempt(s.url, await idp.sign(claims(s)))).status).toBe(200);
    await idp.rotate();
    idp.routes.set(new URL(idp.jwksUri).pathname, (_req, res) => res.writeHead(500).end('down'));
    const down = await attempt(s.url, await idp.sign(claims(s)));
    expect([down.status, down.retryAfter]).toEqual([503, '5']);
    expect(reports.join('\n')).toMatch(/bearer token verification/);
  });
});
