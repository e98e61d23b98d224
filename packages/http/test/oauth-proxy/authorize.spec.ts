/** authorize.ts: which scopes an authorization request gets. */
import { requestedScopes } from '../../src/oauth-proxy/authorize';

describe('OAuth proxy part: authorize', () => {
  const offered = ['notes:read', 'notes:write', 'admin'];

  it('grants all the client may have when scope is left out, and only what it registered', () => {
    expect(requestedScopes(offered, undefined, undefined)).toEqual(offered);
    expect(requestedScopes(offered, ' ', 'notes:read gone')).toEqual(['notes:read']);
  });

  it('refuses a scope not offered to the client, and removes duplicates', () => {
    expect(requestedScopes(offered, 'notes:read admin', 'notes:read')).toBeUndefined();
    expect(requestedScopes(offered, 'notes:read notes:read', undefined)).toEqual(['notes:read']);
  });
});
