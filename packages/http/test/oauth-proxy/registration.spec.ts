/** registration.ts: what a client may register (RFC 7591), each refusal with its RFC 7591 code. */
import { checkClientMetadata, RegistrationError } from '../../src/oauth-proxy/registration';

const limits = { maxRedirectUris: 2, scopes: ['notes:read'] };
const refusal = (body: unknown): { error: string; description: string } => {
  try {
    checkClientMetadata(body, limits);
  } catch (error) {
    if (error instanceof RegistrationError) return { error: error.error, description: error.description };
    throw error;
  }
  throw new Error('accepted');
};

describe('OAuth proxy part: registration', () => {
  it('accepts https and loopback http redirect URIs, defaulting to a confidential client', () => {
    expect(checkClientMetadata({ redirect_uris: ['https://app.example.com/cb', 'http://127.0.0.1:9/cb'] }, limits)).toEqual({
      redirect_uris: ['https://app.example.com/cb', 'http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    });
  });

  it('refuses plain http, fragments, too many URIs, unknown auth methods and scopes', () => {
    expect(refusal({ redirect_uris: ['http://app.example.com/cb'] }).error).toBe('invalid_redirect_uri');
    expect(refusal({ redirect_uris: ['https://app.example.com/cb#x'] }).description).toMatch(/fragment/);
    expect(refusal({ redirect_uris: ['https://a/1', 'https://a/2', 'https://a/3'] }).description).toMatch(/At most 2/);
    expect(refusal({ redirect_uris: ['https://a/1'], token_endpoint_auth_method: 'tls_client_auth' }).error).toBe('invalid_client_metadata');
    expect(refusal({ redirect_uris: ['https://a/1'], scope: 'admin' }).description).toMatch(/notes:read/);
  });
});
