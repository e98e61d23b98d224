/**
 * The official SDK's OAuth client side (`OAuthClientProvider`), kept in memory: a public client
 * (no secret) registering one redirect URI, its registration, tokens and PKCE verifier, and the
 * last authorization URL the SDK asked a browser to open (`pending`), which the test then plays
 * the person for (test/support/oidc-provider.ts has the browser).
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class InMemoryOAuthClient implements OAuthClientProvider {
  /** What the authorization server registered. */
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** The authorization URL the SDK last asked the user agent to open. */
  pending?: URL;
  /** The `state` the SDK sends (and must get back). */
  readonly sentState = randomBytes(16).toString('base64url');

  constructor(
    readonly redirectUrl: string,
    private readonly name = 'TypeMCP test client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.sentState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.pending = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
