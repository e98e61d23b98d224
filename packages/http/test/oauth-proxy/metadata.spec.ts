/** metadata.ts: the RFC 8414 document names this proxy's endpoints and what it supports. */
import { metadataOf } from '../../src/oauth-proxy/metadata';
import { partContext } from './parts';

describe('OAuth proxy part: metadata', () => {
  it('names the endpoints under the issuer, S256 only, RFC 9207 iss, and the scopes offered', () => {
    const doc = metadataOf(partContext());
    expect(doc).toMatchObject({
      issuer: 'https://mcp.example.com',
      authorization_endpoint: 'https://mcp.example.com/oauth/authorize',
      token_endpoint: 'https://mcp.example.com/oauth/token',
      registration_endpoint: 'https://mcp.example.com/oauth/register',
      jwks_uri: 'https://mcp.example.com/oauth/jwks',
      scopes_supported: ['notes:read', 'notes:write'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('leaves scopes_supported out when the proxy grants none', () => {
    expect(metadataOf(partContext({ scopes: [] }))).not.toHaveProperty('scopes_supported');
  });
});
