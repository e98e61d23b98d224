/**
 * `HttpOptions.oauthProxy`: builds the proxy (checking its options) and the HTTP options that
 * protect the MCP routes with it: its verifier in place of `auth.verify` (unless `auth` is
 * given), and a Protected Resource Metadata document (RFC 9728) naming the proxy as
 * authorization server. The proxy grants the scopes the served features declare, unless
 * `scopes` says otherwise; scopes that leave a declared one out are a DefinitionError, since no
 * client could ever be granted it.
 */
import { DefinitionError } from '@typemcp/protocol';
import { HttpStartUpCode } from '../errors.js';
import type { AuthOptions, HttpOptions } from '../http-options.interface.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { DPOP_ALGORITHMS } from '../security/dpop.js';
import type { TokenVerifier } from '../security/token-verifier.js';
import { checkOAuthProxyOptions } from './check-oauth-proxy-options.js';
import { OAuthProxy, proxyTokenVerifier } from './oauth-proxy.js';

/** What the MCP routes run with: their options, the proxy to mount and its verifier (none without `oauthProxy`). */
export interface ProxiedOptions {
  options: HttpOptions;
  proxy?: OAuthProxy;
  verifier?: TokenVerifier;
}

/**
 * The options the MCP routes run with, for a server whose tools, resources and prompts declare
 * `declared` scopes; `mountPrefix`: the path the routes are mounted under (the Fastify plugin's
 * `prefix`), part of the default resource.
 */
export function withOAuthProxy(options: HttpOptions, declared: readonly string[], mountPrefix = ''): ProxiedOptions {
  const given = options.oauthProxy;
  if (given === undefined) return { options };
  let proxy: OAuthProxy;
  if (given instanceof OAuthProxy) {
    proxy = given;
  } else {
    checkOAuthProxyOptions(given);
    const path = options.path ?? HTTP_DEFAULTS.path;
    proxy = new OAuthProxy({
      onError: options.onError,
      ...given,
      resource: given.resource ?? `${new URL(given.baseUrl).origin}${mountPrefix}${path}`,
      scopes: given.scopes ?? declared,
    });
  }
  const missing = declared.filter((scope) => !proxy.scopes.includes(scope));
  if (missing.length) {
    throw new DefinitionError(
      HttpStartUpCode.OAuthProxyScopes,
      `oauthProxy.scopes (${proxy.scopes.join(', ') || 'none'}) leaves out ${missing.join(', ')}, declared by the served tools, resources or prompts: ` +
        'no client could be granted it, so registrations asking for it fail and the calls needing it are refused. ' +
        `Add ${missing.length > 1 ? 'them' : 'it'} to oauthProxy.scopes, or leave scopes out to grant exactly the declared scopes.`,
    );
  }
  const document = {
    resource: proxy.resource,
    authorization_servers: [proxy.issuer],
    ...(proxy.scopes.length ? { scopes_supported: proxy.scopes } : {}),
    bearer_methods_supported: ['header'],
    ...(proxy.dpop ? { dpop_signing_alg_values_supported: DPOP_ALGORITHMS } : {}),
  };
  const auth = options.auth;
  if (auth) {
    // The application's own verification (jwt, introspection or verify) stays; the metadata names the proxy.
    return { options: { ...options, auth: { ...auth, protectedResource: { ...document, ...auth.protectedResource } } }, proxy };
  }
  const merged: AuthOptions = { verify: proxy.verify, samePrincipal: proxy.samePrincipal, protectedResource: document, ...(proxy.dpop ? { dpop: {} } : {}) };
  return { options: { ...options, auth: merged }, proxy, verifier: proxyTokenVerifier(proxy) };
}
