/**
 * OAuth for the HTTP server. MCP clients sign their user in through your identity provider
 * (GitHub, Google, Entra, Keycloak, any OpenID provider) without registering there: the server's
 * OAuth proxy (@typemcp/http) registers them, asks the user to approve each one, sends the user to
 * the provider with the one client you registered there, and gives MCP clients its own tokens
 * for this server. Register `<PUBLIC_URL>/oauth/callback` as that client's redirect URI.
 *
 * OAUTH_ISSUER        the provider's issuer URL (its endpoints are discovered)
 * OAUTH_CLIENT_ID     the client registered at the provider for this server
 * OAUTH_CLIENT_SECRET its secret
 * OAUTH_SCOPES        what to ask the provider for (default "openid")
 * MCP_SCOPES          the scopes this server's own tokens may carry (default: every scope the services declare)
 * PUBLIC_URL          where clients reach this server (default http://<host>:<port>)
 */
import type { OAuthProxyOptions } from '@typemcp/http';

const list = (value: string | undefined, fallback: string[]): string[] => (value ? value.split(/[\s,]+/).filter(Boolean) : fallback);

/** The OAuth proxy's options from the environment; throws, naming them, when the required ones are missing. */
export function oauthProxyFromEnv(port: number, host: string, env: NodeJS.ProcessEnv = process.env): OAuthProxyOptions {
  const missing = ['OAUTH_ISSUER', 'OAUTH_CLIENT_ID'].filter((name) => !env[name]);
  if (missing.length) {
    throw new Error(`Set ${missing.join(' and ')}: the identity provider and the client registered there for this server (see README.md, "Protected with OAuth")`);
  }
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: env.PUBLIC_URL ?? `http://${reachable}:${port}`,
    upstream: { issuer: env.OAUTH_ISSUER!, clientId: env.OAUTH_CLIENT_ID!, clientSecret: env.OAUTH_CLIENT_SECRET, scopes: list(env.OAUTH_SCOPES, ['openid']) },
    // Left out, the proxy grants exactly the scopes the services declare; a list that leaves one out stops start-up.
    ...(env.MCP_SCOPES ? { scopes: list(env.MCP_SCOPES, []) } : {}),
  };
}
