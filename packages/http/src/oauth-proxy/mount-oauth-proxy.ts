/**
 * `HttpOptions.oauthProxy`: builds the proxy (checking its options) and the HTTP options that
 * protect the MCP routes with it: its verifier as `auth.verify` (unless `auth` is given), and a
 * Protected Resource Metadata document (RFC 9728) naming the proxy as authorization server.
 */
import type { AuthOptions, HttpOptions } from '../http-options.interface.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { checkOAuthProxyOptions } from './check-oauth-proxy-options.js';
import { OAuthProxy } from './oauth-proxy.js';

/** The options the MCP routes run with, and the proxy to mount (none without `oauthProxy`). */
export function withOAuthProxy(options: HttpOptions): { options: HttpOptions; proxy?: OAuthProxy } {
  const given = options.oauthProxy;
  if (given === undefined) return { options };
  let proxy: OAuthProxy;
  if (given instanceof OAuthProxy) {
    proxy = given;
  } else {
    checkOAuthProxyOptions(given);
    const path = options.path ?? HTTP_DEFAULTS.path;
    proxy = new OAuthProxy({ onError: options.onError, ...given, resource: given.resource ?? `${new URL(given.baseUrl).origin}${path}` });
  }
  const document = {
    resource: proxy.resource,
    authorization_servers: [proxy.issuer],
    ...(proxy.scopes.length ? { scopes_supported: proxy.scopes } : {}),
    bearer_methods_supported: ['header'],
  };
  const auth = options.auth;
  const merged: AuthOptions = auth
    ? // The application's own verification (jwt, introspection or verify) stays; the metadata names the proxy.
      { ...auth, protectedResource: { ...document, ...auth.protectedResource } }
    : { verify: proxy.verify, samePrincipal: proxy.samePrincipal, protectedResource: document };
  return { options: { ...options, auth: merged }, proxy };
}
