/** upstream.ts: who signed in, from the ID token the upstream's token endpoint returned. */
import { SignJWT } from 'jose';
import { partContext } from './parts';

const idToken = (claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .sign(new TextEncoder().encode('k'.repeat(32)));

describe('OAuth proxy part: upstream', () => {
  const ctx = partContext({
    upstream: {
      issuer: 'https://idp.example.com',
      authorizationEndpoint: 'https://idp.example.com/a',
      tokenEndpoint: 'https://idp.example.com/t',
      clientId: 'proxy',
    },
  });

  it('takes sub from an ID token of the configured issuer for the proxy client', async () => {
    const token = await idToken({ iss: 'https://idp.example.com', aud: ['proxy', 'x'], sub: 'alice' });
    expect(await ctx.upstream.subjectOf({ access_token: 'a', id_token: token })).toBe('alice');
  });

  it('finds no subject in an ID token of another issuer or audience, or without one', async () => {
    expect(
      await ctx.upstream.subjectOf({ access_token: 'a', id_token: await idToken({ iss: 'https://evil.example.com', aud: 'proxy', sub: 'a' }) }),
    ).toBeUndefined();
    expect(
      await ctx.upstream.subjectOf({ access_token: 'a', id_token: await idToken({ iss: 'https://idp.example.com', aud: 'other', sub: 'a' }) }),
    ).toBeUndefined();
    expect(await ctx.upstream.subjectOf({ access_token: 'a' })).toBeUndefined();
  });
});
