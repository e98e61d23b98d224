/** RFC 8414 authorization server metadata of the proxy (served at the root only: the issuer has no path). */
import type { Request, Response } from 'express';
import { DPOP_ALGORITHMS } from '../security/dpop.js';
import { ASSERTION_ALGORITHMS } from './client-auth.js';
import { OAUTH_PROXY_PATHS, type ProxyContext } from './context.js';
import { ID_JAG_PROFILE } from './enterprise.js';
import { supportedGrants } from './token.js';

export function metadataOf(ctx: ProxyContext): Record<string, unknown> {
  const at = (path: string) => `${ctx.issuer}${path}`;
  const keyClients = [...ctx.machines.values()].some((m) => m.jwks);
  return {
    issuer: ctx.issuer,
    authorization_endpoint: at(OAUTH_PROXY_PATHS.authorize),
    token_endpoint: at(OAUTH_PROXY_PATHS.token),
    ...(ctx.options.dynamicRegistration === false ? {} : { registration_endpoint: at(OAUTH_PROXY_PATHS.register) }),
    ...(ctx.documents ? { client_id_metadata_document_supported: true } : {}),
    jwks_uri: at(OAUTH_PROXY_PATHS.jwks),
    ...(ctx.scopes.length ? { scopes_supported: ctx.scopes } : {}),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: supportedGrants(ctx),
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic', ...(keyClients ? ['private_key_jwt'] : [])],
    ...(keyClients ? { token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS } : {}),
    ...(ctx.enterprise.size ? { authorization_grant_profiles_supported: [ID_JAG_PROFILE] } : {}),
    ...(ctx.options.dpop ? { dpop_signing_alg_values_supported: DPOP_ALGORITHMS } : {}),
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** GET /.well-known/oauth-authorization-server. */
export function metadataEndpoint(ctx: ProxyContext, req: Request, res: Response): void {
  if (req.method !== 'GET') return void res.status(405).set('Allow', 'GET').end();
  res.set('Cache-Control', 'public, max-age=300').json(metadataOf(ctx));
}
