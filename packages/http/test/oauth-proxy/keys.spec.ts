/** keys.ts: the signing key, and the access tokens it signs, checked as OAuthProxy.verify checks them. */
import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import { TokenRejectedError } from '../../src/security/token-verifier';
import { checkAccessToken, loadKeys, signAccessToken } from '../../src/oauth-proxy/keys';
import { partContext } from './parts';

const JWK_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
const GRANT = { subject: 'alice', clientId: 'c1', scopes: ['notes:read'], resource: 'https://mcp.example.com/mcp', upstream: { access_token: 'u' } };

describe('OAuth proxy part: keys', () => {
  it('publishes only the public half of a configured JWK, with a kid stable across restarts', async () => {
    const a = await loadKeys(import('jose'), JWK_KEY);
    const b = await loadKeys(import('jose'), JWK_KEY);
    expect(a.publicJwk).not.toHaveProperty('d');
    expect(a.publicJwk).toMatchObject({ alg: 'ES256', use: 'sig', x: JWK_KEY.x, y: JWK_KEY.y });
    expect(a.publicJwk.kid).toBe(b.publicJwk.kid);
    const made = await loadKeys(import('jose'), undefined);
    expect(made.publicJwk.kid).not.toBe(a.publicJwk.kid);
  });

  it('signs at+jwt tokens that check while the grant lives, and says why once it is gone', async () => {
    const ctx = partContext({}, JWK_KEY);
    await ctx.store.set('grant', 'g1', GRANT, 60_000);
    const token = await signAccessToken(ctx, 'g1', GRANT, ['notes:read']);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(await checkAccessToken(ctx, token)).toMatchObject({ subject: 'alice', clientId: 'c1', scopes: ['notes:read'] });
    await ctx.store.delete('grant', 'g1');
    const gone = await checkAccessToken(ctx, token);
    expect(gone).toBeInstanceOf(TokenRejectedError);
    expect((gone as Error).message).toMatch(/revoked/);
  });

  it('refuses a token of another audience or signed by another key, naming why', async () => {
    const ctx = partContext({}, JWK_KEY);
    await ctx.store.set('grant', 'g1', GRANT, 60_000);
    const other = await signAccessToken(ctx, 'g1', { ...GRANT, resource: 'https://other.example.com/mcp' }, []);
    expect(((await checkAccessToken(ctx, other)) as Error).message).toMatch(/aud/);
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
    const forged = await new SignJWT({ client_id: 'c1', gid: 'g1' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer(ctx.issuer)
      .setAudience(ctx.resource)
      .setSubject('alice')
      .setExpirationTime('1m')
      .sign(await importJWK(foreign, 'ES256'));
    expect(((await checkAccessToken(ctx, forged)) as Error).message).toMatch(/signature/);
  });
});
