/**
 * OAuth for the HTTP server. MCP clients sign their user in through your identity provider
 * (GitHub, Google, Entra, Keycloak, any OpenID provider) without registering there: the server's
 * OAuth proxy (@typemcp/http) registers them, asks the user to approve each one, sends the user to
 * the provider with the one client you registered there, and gives MCP clients its own tokens
 * for this server. Register `<PUBLIC_URL>/oauth/callback` as that client's redirect URI.
 *
 * Read from the configuration (src/config.ts): OAUTH_ISSUER, OAUTH_CLIENT_ID,
 * OAUTH_CLIENT_SECRET, OAUTH_SCOPES (default openid), MCP_SCOPES (default: the scopes the services declare) and PUBLIC_URL
 * (where clients reach this server; default http://<host>:<port>).
 */
import type { OAuthProxyOptions } from '@typemcp/http';
import type { AppConfig } from './config.js';

/** The OAuth proxy's options from the configuration; throws, naming them, when the required ones are missing. */
export function oauthProxyFrom(config: AppConfig): OAuthProxyOptions {
  const missing = [
    ['OAUTH_ISSUER', config.oauthIssuer],
    ['OAUTH_CLIENT_ID', config.oauthClientId],
  ].flatMap(([name, value]) => (value ? [] : [name]));
  if (missing.length) {
    throw new Error(`Set ${missing.join(' and ')}: the identity provider and the client registered there for this server (see README.md, "Protected with OAuth")`);
  }
  const { host, port } = config;
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: config.publicUrl ?? `http://${reachable}:${port}`,
    upstream: { issuer: config.oauthIssuer!, clientId: config.oauthClientId!, clientSecret: config.oauthClientSecret, scopes: config.oauthScopes },
    // Left out, the proxy grants exactly the scopes the services declare; a list that leaves one out stops start-up.
    ...(config.mcpScopes ? { scopes: config.mcpScopes } : {}),
  };
}
