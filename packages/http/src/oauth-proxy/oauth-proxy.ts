/**
 * The OAuth proxy: an authorization server for MCP clients in front of an identity provider that
 * has no dynamic client registration (GitHub, Google, corporate IdPs).
 *
 * MCP client ──register/authorize/token──▶ proxy ──own client, own PKCE+state──▶ upstream
 *
 * Its parts, each a file of this folder working on one shared {@link ProxyContext}:
 * - metadata.ts: RFC 8414 metadata;
 * - clients.ts, registration.ts: RFC 7591 registration (redirect URIs: https or loopback http only);
 * - cimd.ts: Client ID Metadata Documents (an https client_id fetched through the SSRF guard);
 * - authorize.ts: `/oauth/authorize` and the proxy's consent page, then the upstream;
 * - callback.ts, upstream.ts: the upstream's answer, its code exchanged server-side; the upstream's
 *   tokens stay in the store, under the proxy's grant;
 * - token.ts, client-auth.ts: `/oauth/token`, client authentication, codes and refresh tokens
 *   (single use and rotation);
 * - machine.ts: machine access with the client-credentials grant;
 * - enterprise.ts: enterprise IdPs' ID-JAGs with the JWT bearer grant;
 * - keys.ts: the signing key, JWKS, and the proxy's own access tokens (ES256, `typ: at+jwt`,
 *   `aud` = the resource).
 *
 * No token from a client is ever sent upstream, and no upstream token is ever given to a client.
 */
import type { default as Express, NextFunction, Request, Response, Router } from 'express';
import { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import { RemoteKeySet } from '../security/remote-key-set.js';
import { TokenRejectedError, VerifierUnavailableError, type TokenVerifier } from '../security/token-verifier.js';
import { authorizeEndpoint, consentDecision, consentForm } from './authorize.js';
import { callbackEndpoint } from './callback.js';
import { checkOAuthProxyOptions } from './check-oauth-proxy-options.js';
import { ClientMetadataDocuments } from './cimd.js';
import { registerEndpoint } from './clients.js';
import { firstUse, OAUTH_PROXY_PATHS, OAuthError, sha256, type Grant, type ProxyContext } from './context.js';
import { DEFAULT_IDP_ALGORITHMS } from './enterprise.js';
import { checkAccessToken, jwksEndpoint, loadKeys, type OAuthProxyPrincipal } from './keys.js';
import { metadataEndpoint, metadataOf } from './metadata.js';
import type { OAuthProxyOptions, OAuthUpstreamTokens } from './oauth-proxy-options.interface.js';
import { MemoryOAuthProxyStore, type OAuthProxyStore } from './oauth-proxy-store.js';
import { oauthError, page } from './responses.js';
import { tokenEndpoint } from './token.js';
import { Upstream } from './upstream.js';

export { OAUTH_PROXY_PATHS } from './context.js';

/** The ext-auth extension for machine access with client credentials. @publicApi */
export const CLIENT_CREDENTIALS_EXTENSION = 'io.modelcontextprotocol/oauth-client-credentials';
/** The ext-auth extension for enterprise-managed authorization (ID-JAG). @publicApi */
export const ENTERPRISE_EXTENSION = 'io.modelcontextprotocol/enterprise-managed-authorization';
export type { OAuthProxyPrincipal } from './keys.js';

const verifiers = new WeakMap<OAuthProxy, TokenVerifier>();

/**
 * The proxy's tokens as a built-in verifier, for the MCP routes it protects: a refused token's
 * 401 says why (expired, revoked...), and a store that cannot be asked is a 503, not a 401.
 */
export function proxyTokenVerifier(proxy: OAuthProxy): TokenVerifier {
  return verifiers.get(proxy)!;
}

type Handler = (ctx: ProxyContext, req: Request, res: Response) => Promise<void> | void;

/** The OAuth proxy (see the file comment). Mount `router` at the root of `baseUrl`; pass `verify` as `auth.verify`. @publicApi */
export class OAuthProxy {
  /** The proxy's issuer (`baseUrl` without a trailing slash). */
  readonly issuer: string;
  /** The protected resource its tokens are for. */
  readonly resource: string;
  /** The scopes it grants. */
  readonly scopes: readonly string[];
  /** The express routes of the proxy. */
  readonly router: Router;
  /** The store in use. */
  readonly store: OAuthProxyStore;
  /**
   * The MCP extensions (SEP-2133) this proxy implements, for `capabilities.extensions`:
   * `io.modelcontextprotocol/oauth-client-credentials` with machine clients,
   * `io.modelcontextprotocol/enterprise-managed-authorization` with enterprise IdPs.
   * `createMcpExpressApp` / `serveHttp` install them on the server they serve.
   */
  readonly extensions: readonly string[];
  /** Whether its tokens may be DPoP-bound (`dpop`). */
  readonly dpop: boolean;

  private readonly ctx: ProxyContext;

  constructor(private readonly options: OAuthProxyOptions) {
    checkOAuthProxyOptions(options);
    const base = new URL(options.baseUrl);
    this.issuer = base.origin;
    const secure = base.protocol === 'https:';
    // Cookie names: `__Host-` on https (Secure, Path=/, no Domain), as MCP's security best practices require.
    const prefix = secure ? '__Host-' : '';
    this.resource = options.resource ?? `${this.issuer}/mcp`;
    this.scopes = [...(options.scopes ?? [])];
    this.store = options.store ?? new MemoryOAuthProxyStore();
    const jose = import('jose');
    jose.catch(() => undefined); // awaited where used; a failed load must not be an unhandled rejection
    const keys = loadKeys(jose, options.signingKey);
    keys.catch(() => undefined);
    this.ctx = {
      options,
      issuer: this.issuer,
      resource: this.resource,
      scopes: this.scopes,
      store: this.store,
      secure,
      cookies: { txn: `${prefix}typemcp_oauth_txn`, browser: `${prefix}typemcp_oauth_browser`, csrf: `${prefix}typemcp_oauth_csrf` },
      ttl: {
        access: options.accessTokenTtlSeconds ?? 3600,
        refresh: options.refreshTokenTtlSeconds ?? 30 * 86_400,
        consent: options.consentTtlSeconds ?? 30 * 86_400,
        client: options.clientTtlSeconds ?? 90 * 86_400,
      },
      jose,
      keys,
      upstream: new Upstream(options.upstream, `${this.issuer}${OAUTH_PROXY_PATHS.callback}`, jose),
      machines: new Map(
        (options.machineClients ?? []).map((m) => [
          m.clientId,
          { clientId: m.clientId, secretHash: m.clientSecret ? sha256(m.clientSecret) : undefined, jwks: m.jwks, scopes: m.scopes, name: m.name ?? m.clientId },
        ]),
      ),
      enterprise: new Map(
        (options.enterpriseIdps ?? []).map((idp) => [
          idp.issuer,
          {
            config: idp,
            algorithms: [...(idp.algorithms ?? DEFAULT_IDP_ALGORITHMS)],
            keys: jose.then(
              (j) =>
                new RemoteKeySet(j, { jwksUri: idp.jwksUri, issuers: [idp.issuer], timeoutMs: 10_000, cooldownMs: 30_000, maxAgeMs: 600_000, toleranceSec: 5 }),
            ),
          },
        ]),
      ),
      documents: options.clientMetadataDocuments
        ? new ClientMetadataDocuments(options.clientMetadataDocuments, { maxRedirectUris: options.maxRedirectUris ?? 10, scopes: this.scopes })
        : undefined,
      report: (error, where, code) => this.report(error, where, code),
    };
    this.dpop = options.dpop === true;
    this.extensions = [...(this.ctx.machines.size ? [CLIENT_CREDENTIALS_EXTENSION] : []), ...(this.ctx.enterprise.size ? [ENTERPRISE_EXTENSION] : [])];
    this.router = this.routes();
    verifiers.set(this, {
      issuer: this.issuer,
      // DPoP proofs at the MCP routes are used once across every instance sharing the store.
      firstUse: (key, expiresAtSec) => firstUse(this.store, key, expiresAtSec),
      verify: async (token) => {
        let checked: OAuthProxyPrincipal | TokenRejectedError;
        try {
          checked = await checkAccessToken(this.ctx, token);
        } catch (error) {
          throw new VerifierUnavailableError('the OAuth proxy store could not be asked', { cause: error });
        }
        if (checked instanceof TokenRejectedError) throw checked;
        return checked;
      },
    });
  }

  /**
   * The principal of one of the proxy's access tokens (signature, issuer, audience = the resource,
   * expiry, and a grant that has not been revoked), or undefined. Use it as `auth.verify`.
   */
  readonly verify = async (token: string): Promise<OAuthProxyPrincipal | undefined> => {
    try {
      const checked = await checkAccessToken(this.ctx, token);
      return checked instanceof TokenRejectedError ? undefined : checked;
    } catch {
      return undefined;
    }
  };

  /**
   * Whether two principals of {@link OAuthProxy.verify} are the same: same user, same client. A
   * session survives its token's refresh (the claims `iat`, `exp`, `jti` change). Use it as `auth.samePrincipal`.
   */
  readonly samePrincipal = (a: unknown, b: unknown): boolean => {
    const x = a as Partial<OAuthProxyPrincipal> | undefined;
    const y = b as Partial<OAuthProxyPrincipal> | undefined;
    return !!x && !!y && typeof x.subject === 'string' && x.subject === y.subject && x.clientId === y.clientId;
  };

  /**
   * The upstream's tokens behind one of the proxy's principals, for the server's own calls to the
   * upstream's APIs (never to be handed to the client). Undefined when the grant is gone.
   */
  async upstreamTokens(principal: OAuthProxyPrincipal): Promise<OAuthUpstreamTokens | undefined> {
    const gid = principal.claims.gid;
    const grant = typeof gid === 'string' ? ((await this.store.get('grant', gid)) as Grant | undefined) : undefined;
    return grant?.upstream;
  }

  /** RFC 8414 authorization server metadata. */
  metadata(): Record<string, unknown> {
    return metadataOf(this.ctx);
  }

  private routes(): Router {
    // express loads with the first routes, not with the package (as in createMcpExpressApp()): a
    // stdio server that imports anything from @typemcp/http does not pay for it at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const express = require('express') as typeof Express;
    const router = express.Router();
    const open = (_req: Request, res: Response, next: NextFunction) => {
      // Public, credential-less endpoints: browser-based MCP clients call them cross-origin.
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, DPoP, MCP-Protocol-Version');
      if (_req.method === 'OPTIONS') return void res.status(204).end();
      next();
    };
    const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
    const json = express.json({ limit: '16kb' });
    const run =
      (handler: Handler, where: string) =>
      (req: Request, res: Response): void => {
        Promise.resolve()
          .then(() => handler(this.ctx, req, res))
          .catch((error: unknown) => this.fail(res, error, where));
      };

    // At the root only: the issuer has no path, so no path-inserted variant may claim it (RFC 8414 §3.3).
    router.all(OAUTH_PROXY_PATHS.metadata, open, run(metadataEndpoint, 'oauth metadata'));
    router.all(OAUTH_PROXY_PATHS.jwks, open, run(jwksEndpoint, 'oauth jwks'));
    if (this.options.dynamicRegistration !== false) router.all(OAUTH_PROXY_PATHS.register, open, json, run(registerEndpoint, 'oauth register'));
    router.all(OAUTH_PROXY_PATHS.token, open, form, run(tokenEndpoint, 'oauth token'));
    router.get(OAUTH_PROXY_PATHS.authorize, run(authorizeEndpoint, 'oauth authorize'));
    router.get(OAUTH_PROXY_PATHS.consent, run(consentForm, 'oauth consent'));
    router.post(OAUTH_PROXY_PATHS.consent, form, run(consentDecision, 'oauth consent'));
    router.get(OAUTH_PROXY_PATHS.callback, run(callbackEndpoint, 'oauth callback'));
    router.use(
      [OAUTH_PROXY_PATHS.token, OAUTH_PROXY_PATHS.register, OAUTH_PROXY_PATHS.consent],
      (error: unknown, _req: Request, res: Response, next: NextFunction) => {
        // Body parser refusals (too large, bad JSON): an OAuth error, not express's HTML page.
        const status = (error as { status?: number }).status;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return void oauthError(
            res,
            new OAuthError('invalid_request', status === 413 ? 'The request body is too large' : 'The request body cannot be parsed'),
          );
        }
        next(error);
      },
    );
    return router;
  }

  /** To `onError` (default: one line on stderr), with a TYPEMCP code; messages never carry a token or secret. */
  private report(error: unknown, where: string, code: HttpErrorCodeValue = HttpErrorCode.Internal): void {
    const failure = new HttpTransportError(code, `${code}: ${error instanceof Error ? error.message : String(error)}`);
    try {
      (this.options.onError ?? ((e: unknown, w: string) => process.stderr.write(`[typemcp] ${w}: ${(e as Error).message}\n`)))(failure, where);
    } catch {
      // a throwing onError must not break the flow
    }
  }

  private fail(res: Response, error: unknown, where: string): void {
    this.report(error, where);
    if (res.headersSent) return void res.end();
    if (where === 'oauth token' || where === 'oauth register' || where === 'oauth jwks' || where === 'oauth metadata') {
      return void res.status(500).set('Cache-Control', 'no-store').json({ error: 'server_error', error_description: 'Internal error' });
    }
    page(res, 500, 'Something went wrong', 'Start again from your application.');
  }
}
