/** token.ts and machine.ts: which grants the proxy accepts, and which scopes a grant gets. */
import { OAuthError } from '../../src/oauth-proxy/context';
import { checkResource, grantedScopes } from '../../src/oauth-proxy/machine';
import { supportedGrants } from '../../src/oauth-proxy/token';
import { partContext } from './parts';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.error}: ${error.description}`;
    throw error;
  }
  return 'accepted';
};

describe('OAuth proxy part: token grants', () => {
  it('accepts client_credentials and the JWT bearer grant only when configured', () => {
    const ctx = partContext();
    expect(supportedGrants(ctx)).toEqual(['authorization_code', 'refresh_token']);
    const machines = new Map([['m', { clientId: 'm', scopes: [], name: 'm' }]]);
    expect(supportedGrants({ ...ctx, machines })).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    const enterprise = new Map([['https://idp', { config: { issuer: 'https://idp' }, algorithms: [], keys: Promise.reject(new Error('unused')) }]]);
    enterprise.get('https://idp')!.keys.catch(() => undefined);
    expect(supportedGrants({ ...ctx, enterprise })).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });

  it('grants what was asked within what is allowed, all of it when nothing is asked, invalid_scope when nothing is left', () => {
    expect(grantedScopes(undefined, ['a', 'b'], 'x')).toEqual(['a', 'b']);
    expect(grantedScopes(' ', ['a', 'b'], 'x')).toEqual(['a', 'b']);
    expect(grantedScopes('b c b', ['a', 'b'], 'x')).toEqual(['b']);
    expect(refusal(() => grantedScopes('c', ['a', 'b'], 'client x'))).toBe('invalid_scope: None of c can be granted to client x');
  });

  it('issues tokens for its own resource only (RFC 8707)', () => {
    const ctx = partContext();
    expect(refusal(() => checkResource(ctx, { resource: ctx.resource }))).toBe('accepted');
    expect(refusal(() => checkResource(ctx, {}))).toBe('accepted');
    expect(refusal(() => checkResource(ctx, { resource: 'https://other.example.com/mcp' }))).toBe(
      'invalid_target: The only resource this server issues tokens for is https://mcp.example.com/mcp',
    );
  });
});
