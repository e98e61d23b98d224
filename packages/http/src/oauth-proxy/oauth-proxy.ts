/**
 * The OAuth proxy: an authorization server for MCP clients in front of an identity provider that
 * has no dynamic client registration (GitHub, Google, corporate IdPs).
 *
 * MCP client ──register/authorize/token──▶ proxy ──own client, own PKCE+state──▶ upstream
 *
 * - RFC 8414 metadata, RFC 7591 registration (redirect URIs: https or loopback http only).
 * - `/oauth/authorize`: PKCE S256 required (plain refused), the redirect URI exactly as registered,
 *   `state` echoed, `resource` (RFC 8707) equal to this server's; then the proxy's consent page
 *   (the upstream client is shared by every MCP client, so each client needs the user's own
 *   consent before the upstream is asked: confused-deputy protection), then the upstream with
 *   the proxy's pre-registered client and its own PKCE and state, bound to the browser by a cookie.
 * - `/oauth/callback`: the upstream's code is exchanged server-side; the upstream's tokens stay in
 *   the store, under the proxy's grant.
 * - `/oauth/token`: the proxy's own code (single use; a reused code revokes its grant) with
 *   the PKCE verifier, and refresh tokens with rotation (a reused one revokes its grant). The
 *   access tokens are the proxy's own JWTs (ES256, `typ: at+jwt`, `aud` = the resource).
 *
 * No token from a client is ever sent upstream, and no upstream token is ever given to a client.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { default as Express, NextFunction, Request, Response, Router } from 'express';
import type { CryptoKey as JoseKey, JWK, JWTPayload } from 'jose';
import { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import { fetchJsonObject } from '../outbound/fetch-json.js';
import { fetchIssuerMetadata, metadataUrl } from '../outbound/issuer-metadata.js';
import { joseRejection } from '../security/jose-rejection.js';
import { TokenRejectedError, VerifierUnavailableError, type TokenVerifier } from '../security/token-verifier.js';
import { checkOAuthProxyOptions } from './check-oauth-proxy-options.js';
import type { OAuthProxyOptions, OAuthUpstreamTokens } from './oauth-proxy-options.interface.js';
import { MemoryOAuthProxyStore, type OAuthProxyStore } from './oauth-proxy-store.js';
import { consentPage, errorPage } from './pages.js';
import { checkClientMetadata, RegistrationError, type RegisteredClient } from './registration.js';

/** What `OAuthProxy.verify` returns for a valid access token of the proxy. @publicApi */
export interface OAuthProxyPrincipal {
  /** The user's id at the upstream. */
  readonly subject: string;
  /** The MCP client the token was issued to. */
  readonly clientId: string;
  /** The scopes the token carries. */
  readonly scopes: readonly string[];
  /** The token's claims. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The paths the proxy serves. @publicApi */
export const OAUTH_PROXY_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  consent: '/oauth/consent',
  callback: '/oauth/callback',
  token: '/oauth/token',
  register: '/oauth/register',
  jwks: '/oauth/jwks',
} as const;

const PENDING_TTL_MS = 10 * 60_000;
const CODE_TTL_MS = 60_000;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;
const MAX_UPSTREAM_BYTES = 64 * 1024;

interface Pending {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  csrf: string;
}

interface Grant {
  subject: string;
  clientId: string;
  scopes: string[];
  resource: string;
  upstream: OAuthUpstreamTokens;
}

/** An OAuth error answered at /token or /register (RFC 6749 §5.2, RFC 7591 §3.2.2). */
class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

const random = (bytes = 32) => randomBytes(bytes).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const verifiers = new WeakMap<OAuthProxy, TokenVerifier>();

/**
 * The proxy's tokens as a built-in verifier, for the MCP routes it protects: a refused token's
 * 401 says why (expired, revoked...), and a store that cannot be asked is a 503, not a 401.
 */
export function proxyTokenVerifier(proxy: OAuthProxy): TokenVerifier {
  return verifiers.get(proxy)!;
}

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

  /** jose, loaded with the first proxy (ESM, and nothing an unprotected server needs). */
  private readonly jose = import('jose');
  private readonly keys: Promise<{ privateKey: JoseKey; publicJwk: JWK }>;
  private upstreamEndpoints?: Promise<{ authorization: string; token: string; issuer?: string }>;
  private readonly secure: boolean;
  /** Cookie names: `__Host-` on https (Secure, Path=/, no Domain), as MCP's security best practices require. */
  private readonly cookies: { txn: string; browser: string; csrf: string };
  private readonly ttl: { access: number; refresh: number; consent: number; client: number };

  constructor(private readonly options: OAuthProxyOptions) {
    checkOAuthProxyOptions(options);
    const base = new URL(options.baseUrl);
    this.issuer = base.origin;
    this.secure = base.protocol === 'https:';
    const prefix = this.secure ? '__Host-' : '';
    this.cookies = { txn: `${prefix}typemcp_oauth_txn`, browser: `${prefix}typemcp_oauth_browser`, csrf: `${prefix}typemcp_oauth_csrf` };
    this.resource = options.resource ?? `${this.issuer}/mcp`;
    this.scopes = [...(options.scopes ?? [])];
    this.store = options.store ?? new MemoryOAuthProxyStore();
    this.ttl = {
      access: options.accessTokenTtlSeconds ?? 3600,
      refresh: options.refreshTokenTtlSeconds ?? 30 * 86_400,
      consent: options.consentTtlSeconds ?? 30 * 86_400,
      client: options.clientTtlSeconds ?? 90 * 86_400,
    };
    this.jose.catch(() => undefined); // awaited where used; a failed load must not be an unhandled rejection
    this.keys = this.loadKeys();
    this.keys.catch(() => undefined);
    this.router = this.routes();
    verifiers.set(this, {
      issuer: this.issuer,
      verify: async (token) => {
        let checked: OAuthProxyPrincipal | TokenRejectedError;
        try {
          checked = await this.check(token);
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
      const checked = await this.check(token);
      return checked instanceof TokenRejectedError ? undefined : checked;
    } catch {
      return undefined;
    }
  };

  /** The principal of a token, or why it is refused; throws when the store cannot be asked. */
  private async check(token: string): Promise<OAuthProxyPrincipal | TokenRejectedError> {
    const [{ jwtVerify }, { publicJwk }] = await Promise.all([this.jose, this.keys]);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, publicJwk, {
        issuer: this.issuer,
        audience: this.resource,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        clockTolerance: 5,
      }));
    } catch (error) {
      return new TokenRejectedError(joseRejection(error) ?? 'the token is not an access token of this server');
    }
    if (typeof payload.sub !== 'string' || typeof payload.client_id !== 'string' || typeof payload.gid !== 'string') {
      return new TokenRejectedError('the token is not an access token of this server');
    }
    if (!(await this.store.get('grant', payload.gid))) {
      return new TokenRejectedError('the token was revoked: its authorization has ended (a reused code or refresh token revokes it)');
    }
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return { subject: payload.sub, clientId: payload.client_id, scopes: scope ? scope.split(' ') : [], claims: payload };
  }

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
    const at = (path: string) => `${this.issuer}${path}`;
    return {
      issuer: this.issuer,
      authorization_endpoint: at(OAUTH_PROXY_PATHS.authorize),
      token_endpoint: at(OAUTH_PROXY_PATHS.token),
      registration_endpoint: at(OAUTH_PROXY_PATHS.register),
      jwks_uri: at(OAUTH_PROXY_PATHS.jwks),
      ...(this.scopes.length ? { scopes_supported: this.scopes } : {}),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    };
  }

  // ---------------------------------------------------------------------------------- routes

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
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
      if (_req.method === 'OPTIONS') return void res.status(204).end();
      next();
    };
    const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
    const json = express.json({ limit: '16kb' });
    const run =
      (handler: (req: Request, res: Response) => Promise<void>, where: string) =>
      (req: Request, res: Response): void => {
        handler(req, res).catch((error: unknown) => this.fail(res, error, where));
      };

    // At the root only: the issuer has no path, so no path-inserted variant may claim it (RFC 8414 §3.3).
    router.all(OAUTH_PROXY_PATHS.metadata, open, (req, res) => {
      if (req.method !== 'GET') return void res.status(405).set('Allow', 'GET').end();
      res.set('Cache-Control', 'public, max-age=300').json(this.metadata());
    });
    router.all(OAUTH_PROXY_PATHS.jwks, open, run(this.jwks, 'oauth jwks'));
    router.all(OAUTH_PROXY_PATHS.register, open, json, run(this.register, 'oauth register'));
    router.all(OAUTH_PROXY_PATHS.token, open, form, run(this.token, 'oauth token'));
    router.get(OAUTH_PROXY_PATHS.authorize, run(this.authorize, 'oauth authorize'));
    router.get(OAUTH_PROXY_PATHS.consent, run(this.consentForm, 'oauth consent'));
    router.post(OAUTH_PROXY_PATHS.consent, form, run(this.consentDecision, 'oauth consent'));
    router.get(OAUTH_PROXY_PATHS.callback, run(this.callback, 'oauth callback'));
    router.use(
      [OAUTH_PROXY_PATHS.token, OAUTH_PROXY_PATHS.register, OAUTH_PROXY_PATHS.consent],
      (error: unknown, _req: Request, res: Response, next: NextFunction) => {
        // Body parser refusals (too large, bad JSON): an OAuth error, not express's HTML page.
        const status = (error as { status?: number }).status;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return void this.oauthError(
            res,
            new OAuthError('invalid_request', status === 413 ? 'The request body is too large' : 'The request body cannot be parsed'),
          );
        }
        next(error);
      },
    );
    return router;
  }

  private readonly jwks = async (req: Request, res: Response): Promise<void> => {
    if (req.method !== 'GET') return void res.status(405).set('Allow', 'GET').end();
    const { publicJwk } = await this.keys;
    res.set('Cache-Control', 'public, max-age=300').json({ keys: [publicJwk] });
  };

  // ------------------------------------------------------------------- RFC 7591 registration

  private readonly register = async (req: Request, res: Response): Promise<void> => {
    if (req.method !== 'POST') return void res.status(405).set('Allow', 'POST').end();
    let client: RegisteredClient;
    try {
      client = checkClientMetadata(req.body, { maxRedirectUris: this.options.maxRedirectUris ?? 10, scopes: this.scopes });
    } catch (error) {
      if (!(error instanceof RegistrationError)) throw error;
      return this.oauthError(res, new OAuthError(error.error, error.description));
    }
    const clientId = random(16);
    const issuedAt = Math.floor(Date.now() / 1000);
    const secret = client.token_endpoint_auth_method === 'none' ? undefined : random(32);
    const record = { ...client, client_id: clientId, client_id_issued_at: issuedAt, ...(secret ? { client_secret_hash: sha256(secret) } : {}) };
    await this.store.set('client', clientId, record, this.ttl.client * 1000);
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ ...client, client_id: clientId, client_id_issued_at: issuedAt, ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) });
  };

  private async client(clientId: string | undefined): Promise<(RegisteredClient & { client_id: string; client_secret_hash?: string }) | undefined> {
    if (!clientId || clientId.length > 200) return undefined;
    return (await this.store.get('client', clientId)) as (RegisteredClient & { client_id: string; client_secret_hash?: string }) | undefined;
  }

  // ------------------------------------------------------------------------------ /authorize

  private readonly authorize = async (req: Request, res: Response): Promise<void> => {
    const q = req.query;
    // A parameter sent twice is refused (RFC 6749 §3.1), never read as absent.
    if (Array.isArray(q.client_id) || Array.isArray(q.redirect_uri)) {
      return this.page(res, 400, 'Invalid request', 'The application sent client_id or redirect_uri more than once. Nothing was sent to it.');
    }
    const client = await this.client(single(q.client_id));
    if (!client) return this.page(res, 400, 'Unknown client', 'The application that sent you here is not registered with this server.');
    const requested = single(q.redirect_uri);
    // Exactly as registered (no prefix or pattern match); left out only when a single one is registered.
    const redirectUri = requested ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
      return this.page(res, 400, 'Invalid redirect URI', 'The application asked to return to an address it did not register. Nothing was sent to it.');
    }
    const state = single(q.state);
    const back = (error: string, description: string) => this.redirect(res, redirectUri, { error, error_description: description, state });
    if (state !== undefined && state.length > 2048) return back('invalid_request', 'state is too long');
    for (const name of ['response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope']) {
      if (Array.isArray(q[name])) return back('invalid_request', `${name} was sent more than once`);
    }
    if (single(q.response_type) !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported');
    const challenge = single(q.code_challenge);
    const method = single(q.code_challenge_method);
    if (!challenge) return back('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
    if (method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!CHALLENGE.test(challenge)) return back('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters)');
    const resources = q.resource === undefined ? [] : Array.isArray(q.resource) ? q.resource : [q.resource];
    if (resources.length > 1 || (resources.length === 1 && resources[0] !== this.resource)) {
      return back('invalid_target', `The only resource this server issues tokens for is ${this.resource}`);
    }
    const scopes = this.requestedScopes(single(q.scope), client.scope);
    if (!scopes) return back('invalid_scope', 'A requested scope is not offered to this client');
    const txn = random();
    const pending: Pending = { clientId: client.client_id, redirectUri, state, codeChallenge: challenge, scopes, resource: this.resource, csrf: random() };
    await this.store.set('pending', txn, { ...pending }, PENDING_TTL_MS);
    const browser = cookieOf(req, this.cookies.browser);
    if (browser && this.ttl.consent > 0 && (await this.store.get('consent', `${browser}|${client.client_id}`))) {
      return this.toUpstream(res, txn);
    }
    res.redirect(303, `${this.issuer}${OAUTH_PROXY_PATHS.consent}?txn=${encodeURIComponent(txn)}`);
  };

  /** The scopes asked for, or undefined when one is not allowed. */
  private requestedScopes(scope: string | undefined, registered: string | undefined): string[] | undefined {
    const allowed = registered ? registered.split(' ').filter((s) => this.scopes.includes(s)) : this.scopes;
    if (scope === undefined || scope.trim() === '') return [...allowed];
    const asked = [...new Set(scope.split(' ').filter(Boolean))];
    return asked.every((s) => allowed.includes(s)) ? asked : undefined;
  }

  // --------------------------------------------------------------------------------- consent

  private readonly consentForm = async (req: Request, res: Response): Promise<void> => {
    const txn = single(req.query.txn) ?? '';
    const pending = txn.length <= 64 ? ((await this.store.get('pending', txn)) as Pending | undefined) : undefined;
    if (!pending) return this.page(res, 400, 'This request has expired', 'Start again from your application.');
    const client = await this.client(pending.clientId);
    if (!client) return this.page(res, 400, 'Unknown client', 'The application is no longer registered.');
    const csrf = random();
    res.setHeader('Set-Cookie', this.cookie(this.cookies.csrf, csrf, PENDING_TTL_MS / 1000));
    this.htmlHeaders(res);
    res.status(200).send(
      consentPage({
        action: `${this.issuer}${OAUTH_PROXY_PATHS.consent}`,
        txn,
        csrf: `${csrf}.${pending.csrf}`,
        clientName: client.client_name,
        clientId: client.client_id,
        redirectUri: pending.redirectUri,
        scopes: pending.scopes,
        upstreamScopes: this.options.upstream.scopes ?? ['openid'],
        // Named from the configuration: showing the page never calls the upstream.
        upstream: new URL(this.options.upstream.authorizationEndpoint ?? this.options.upstream.issuer!).host,
        resource: pending.resource,
      }),
    );
  };

  private readonly consentDecision = async (req: Request, res: Response): Promise<void> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const txn = single(body.txn) ?? '';
    const [cookieCsrf, pendingCsrf] = (single(body.csrf) ?? '').split('.');
    const origin = req.headers.origin;
    // A consent is the user's own: posted from this page (same origin, the cookie set with the form).
    const sameBrowser = !!cookieCsrf && safeEqual(cookieOf(req, this.cookies.csrf) ?? '', cookieCsrf) && (origin === undefined || origin === this.issuer);
    const pending = txn.length <= 64 ? ((await this.store.get('pending', txn)) as Pending | undefined) : undefined;
    if (!pending || !sameBrowser || !pendingCsrf || !safeEqual(pending.csrf, pendingCsrf)) {
      return this.page(res, 403, 'Consent not accepted', 'The consent form was not submitted from this page. Start again from your application.');
    }
    res.append('Set-Cookie', this.cookie(this.cookies.csrf, '', 0));
    if (body.decision !== 'approve') {
      await this.store.delete('pending', txn);
      return this.redirect(res, pending.redirectUri, { error: 'access_denied', error_description: 'The user denied the request', state: pending.state });
    }
    if (this.ttl.consent > 0) {
      let browser = cookieOf(req, this.cookies.browser);
      if (!browser || browser.length > 64) {
        browser = random();
        res.append('Set-Cookie', this.cookie(this.cookies.browser, browser, this.ttl.consent));
      }
      await this.store.set('consent', `${browser}|${pending.clientId}`, { at: Date.now() }, this.ttl.consent * 1000);
    }
    await this.toUpstream(res, txn);
  };

  // -------------------------------------------------------------------------------- upstream

  /** Sends the browser to the upstream with the proxy's own client, PKCE and state, bound to this browser. */
  private async toUpstream(res: Response, txn: string): Promise<void> {
    const endpoints = await this.endpoints();
    const state = random();
    const verifier = random(48);
    await this.store.set('upstream-state', state, { txn, verifier }, PENDING_TTL_MS);
    const up = this.options.upstream;
    const url = new URL(endpoints.authorization);
    for (const [k, v] of Object.entries(up.authorizationParams ?? {})) url.searchParams.set(k, v);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', up.clientId);
    url.searchParams.set('redirect_uri', `${this.issuer}${OAUTH_PROXY_PATHS.callback}`);
    url.searchParams.set('scope', (up.scopes ?? ['openid']).join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', sha256(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    res.append('Set-Cookie', this.cookie(this.cookies.txn, txn, PENDING_TTL_MS / 1000));
    res.redirect(303, url.toString());
  }

  private readonly callback = async (req: Request, res: Response): Promise<void> => {
    const state = single(req.query.state) ?? '';
    const entry = state.length <= 128 ? await this.store.take('upstream-state', state) : undefined;
    const txn = entry?.txn as string | undefined;
    // The browser that consented must be the one coming back (an upstream link sent to a victim fails here).
    if (!entry || !txn || !safeEqual(cookieOf(req, this.cookies.txn) ?? '', txn)) {
      return this.page(
        res,
        400,
        'Sign-in could not be completed',
        'This sign-in was not started in this browser, or it has expired. Start again from your application.',
      );
    }
    res.append('Set-Cookie', this.cookie(this.cookies.txn, '', 0));
    const pending = (await this.store.take('pending', txn)) as Pending | undefined;
    if (!pending) return this.page(res, 400, 'This request has expired', 'Start again from your application.');
    const back = (params: Record<string, string | undefined>) => this.redirect(res, pending.redirectUri, { ...params, state: pending.state });
    const upstreamError = single(req.query.error);
    const code = single(req.query.code);
    if (upstreamError || !code) {
      return back({
        error: upstreamError === 'access_denied' ? 'access_denied' : 'server_error',
        error_description: 'The identity provider did not authorize the request',
      });
    }
    let tokens: OAuthUpstreamTokens;
    let subject: string | undefined;
    try {
      tokens = await this.exchangeUpstream(code, entry.verifier as string);
      subject = await this.subjectOf(tokens);
    } catch (error) {
      this.report(error, 'oauth upstream token exchange', HttpErrorCode.OAuthUpstream);
      return back({ error: 'server_error', error_description: 'The identity provider could not be reached or refused the sign-in' });
    }
    if (!subject) {
      return back({ error: 'server_error', error_description: 'The identity provider did not say who signed in' });
    }
    const gid = random();
    const grant: Grant = { subject, clientId: pending.clientId, scopes: pending.scopes, resource: pending.resource, upstream: tokens };
    await this.store.set('grant', gid, { ...grant }, this.ttl.refresh * 1000);
    const ourCode = random();
    await this.store.set(
      'code',
      sha256(ourCode),
      {
        gid,
        clientId: pending.clientId,
        redirectUri: pending.redirectUri,
        codeChallenge: pending.codeChallenge,
        scopes: pending.scopes,
        resource: pending.resource,
      },
      CODE_TTL_MS,
    );
    back({ code: ourCode, iss: this.issuer });
  };

  private async exchangeUpstream(code: string, verifier: string): Promise<OAuthUpstreamTokens> {
    const up = this.options.upstream;
    const { token } = await this.endpoints();
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${this.issuer}${OAUTH_PROXY_PATHS.callback}`,
      code_verifier: verifier,
    });
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
    const method = up.tokenEndpointAuthMethod ?? (up.clientSecret ? 'client_secret_basic' : 'none');
    if (method === 'client_secret_basic') {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(up.clientId)}:${encodeURIComponent(up.clientSecret ?? '')}`).toString('base64')}`;
    } else {
      body.set('client_id', up.clientId);
      if (method === 'client_secret_post') body.set('client_secret', up.clientSecret ?? '');
    }
    const json = await this.fetchJson(token, { method: 'POST', headers, body: body.toString() });
    if (typeof json.access_token !== 'string') {
      throw new Error(
        `the upstream token endpoint answered without an access token (${typeof json.error === 'string' ? json.error.slice(0, 100) : 'no error code'})`,
      );
    }
    return json as OAuthUpstreamTokens;
  }

  private async subjectOf(tokens: OAuthUpstreamTokens): Promise<string | undefined> {
    if (this.options.upstream.subject) return this.options.upstream.subject(tokens);
    if (typeof tokens.id_token !== 'string') return undefined;
    // Received straight from the upstream's token endpoint on the back channel (OIDC Core 3.1.3.7).
    const claims = (await this.jose).decodeJwt(tokens.id_token);
    const { issuer } = await this.endpoints();
    if (issuer && claims.iss !== issuer) return undefined;
    if (claims.aud !== this.options.upstream.clientId && !(Array.isArray(claims.aud) && claims.aud.includes(this.options.upstream.clientId))) return undefined;
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  }

  private endpoints(): Promise<{ authorization: string; token: string; issuer?: string }> {
    const up = this.options.upstream;
    if (up.authorizationEndpoint && up.tokenEndpoint) {
      return Promise.resolve({ authorization: up.authorizationEndpoint, token: up.tokenEndpoint, issuer: up.issuer });
    }
    this.upstreamEndpoints ??= this.discover().catch((error: unknown) => {
      this.upstreamEndpoints = undefined;
      throw error;
    });
    return this.upstreamEndpoints;
  }

  private async discover(): Promise<{ authorization: string; token: string; issuer?: string }> {
    const up = this.options.upstream;
    const issuer = up.issuer!;
    const doc = await fetchIssuerMetadata(issuer, up.timeoutMs ?? 10_000);
    return {
      authorization: up.authorizationEndpoint ?? metadataUrl(doc, 'authorization_endpoint', issuer),
      token: up.tokenEndpoint ?? metadataUrl(doc, 'token_endpoint', issuer),
      issuer: doc.issuer as string,
    };
  }

  /** A JSON answer of the upstream's token endpoint; an error answer without an access token throws. */
  private async fetchJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    const { status, body } = await fetchJsonObject(url, init, { timeoutMs: this.options.upstream.timeoutMs ?? 10_000, maxBytes: MAX_UPSTREAM_BYTES });
    if ((status < 200 || status > 299) && typeof body.access_token !== 'string') {
      const error = body.error;
      throw new Error(`the upstream answered ${status}${typeof error === 'string' ? ` ${error.slice(0, 100)}` : ''}`);
    }
    return body;
  }

  // ---------------------------------------------------------------------------------- /token

  private readonly token = async (req: Request, res: Response): Promise<void> => {
    res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
    if (req.method !== 'POST') return void res.status(405).set('Allow', 'POST').end();
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const client = await this.authenticateClient(req, body);
      const grantType = single(body.grant_type);
      if (grantType === 'authorization_code') return void res.json(await this.redeemCode(client.client_id, body));
      if (grantType === 'refresh_token') return void res.json(await this.refresh(client.client_id, body));
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    } catch (error) {
      if (error instanceof OAuthError) return this.oauthError(res, error, !!req.headers.authorization);
      throw error;
    }
  };

  /** RFC 6749 §2.3: the method the client registered with. */
  private async authenticateClient(req: Request, body: Record<string, unknown>): Promise<RegisteredClient & { client_id: string }> {
    let id = single(body.client_id);
    let secret = single(body.client_secret);
    const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      try {
        id = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      } catch {
        throw new OAuthError('invalid_client', 'Client authentication failed', 401);
      }
    }
    const client = await this.client(id);
    if (!client) throw new OAuthError('invalid_client', 'Client authentication failed', 401);
    const method = client.token_endpoint_auth_method;
    if (method === 'none') {
      if (secret !== undefined || basic) throw new OAuthError('invalid_client', 'Client authentication failed', 401);
    } else {
      const used = basic ? 'client_secret_basic' : 'client_secret_post';
      if (used !== method || !secret || !client.client_secret_hash || !safeEqual(sha256(secret), client.client_secret_hash)) {
        throw new OAuthError('invalid_client', 'Client authentication failed', 401);
      }
    }
    return client;
  }

  private async redeemCode(clientId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const code = single(body.code);
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    const key = sha256(code);
    const record = await this.store.take('code', key);
    if (!record) {
      // A code used twice: the first redemption may have been an attacker's, so its grant goes (OAuth 2.1 §4.1.3).
      const used = await this.store.get('used-code', key);
      if (used) await this.store.delete('grant', used.gid as string);
      throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired or already used');
    }
    await this.store.set('used-code', key, { gid: record.gid }, PENDING_TTL_MS);
    if (record.clientId !== clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
    if (single(body.redirect_uri) !== record.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    const verifier = single(body.code_verifier);
    if (!verifier || !VERIFIER.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier is required (43 to 128 unreserved characters)');
    if (!safeEqual(sha256(verifier), record.codeChallenge as string)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    this.checkResource(body, record.resource as string);
    const gid = record.gid as string;
    const grant = (await this.store.get('grant', gid)) as Grant | undefined;
    if (!grant) throw new OAuthError('invalid_grant', 'The authorization was revoked');
    return this.issue(gid, grant, grant.scopes);
  }

  private async refresh(clientId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const token = single(body.refresh_token);
    if (!token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const key = sha256(token);
    const record = await this.store.take('refresh', key);
    if (!record) {
      // A rotated refresh token used again: stolen or replayed, so the whole grant goes (RFC 9700 §4.14).
      const used = await this.store.get('used-refresh', key);
      if (used) await this.store.delete('grant', used.gid as string);
      throw new OAuthError('invalid_grant', 'The refresh token is invalid, expired or already used');
    }
    const gid = record.gid as string;
    await this.store.set('used-refresh', key, { gid }, this.ttl.refresh * 1000);
    if (record.clientId !== clientId) {
      await this.store.delete('grant', gid);
      throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    }
    const grant = (await this.store.get('grant', gid)) as Grant | undefined;
    if (!grant) throw new OAuthError('invalid_grant', 'The authorization was revoked');
    this.checkResource(body, grant.resource);
    const scope = single(body.scope);
    const scopes = scope ? [...new Set(scope.split(' ').filter(Boolean))] : (record.scopes as string[]);
    if (!scopes.every((s) => grant.scopes.includes(s))) throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes');
    return this.issue(gid, grant, scopes);
  }

  private checkResource(body: Record<string, unknown>, resource: string): void {
    const asked = body.resource;
    if (asked !== undefined && asked !== resource)
      throw new OAuthError('invalid_target', `The only resource this server issues tokens for is ${this.resource}`);
  }

  private async issue(gid: string, grant: Grant, scopes: string[]): Promise<Record<string, unknown>> {
    const [{ SignJWT }, { privateKey, publicJwk }] = await Promise.all([this.jose, this.keys]);
    const scope = scopes.join(' ');
    const accessToken = await new SignJWT({ client_id: grant.clientId, scope, gid })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: publicJwk.kid })
      .setIssuer(this.issuer)
      .setAudience(grant.resource)
      .setSubject(grant.subject)
      .setIssuedAt()
      .setExpirationTime(`${this.ttl.access}s`)
      .setJti(random(16))
      .sign(privateKey);
    const refreshToken = random();
    await this.store.set('refresh', sha256(refreshToken), { gid, clientId: grant.clientId, scopes }, this.ttl.refresh * 1000);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttl.access, refresh_token: refreshToken, scope };
  }

  // --------------------------------------------------------------------------------- helpers

  private async loadKeys(): Promise<{ privateKey: JoseKey; publicJwk: JWK }> {
    const { exportJWK, generateKeyPair, importJWK } = await this.jose;
    const given = this.options.signingKey;
    let privateKey: JoseKey;
    let jwk: JWK;
    if (given === undefined) {
      const pair = await generateKeyPair('ES256', { extractable: true });
      privateKey = pair.privateKey;
      jwk = await exportJWK(pair.publicKey);
    } else if ('type' in given && (given as JoseKey).type === 'private') {
      privateKey = given as JoseKey;
      const { d: _d, ...pub } = await exportJWK(given as JoseKey);
      jwk = pub;
    } else {
      const key = given as JWK;
      privateKey = (await importJWK({ ...key, alg: 'ES256' }, 'ES256')) as JoseKey;
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = key;
      jwk = pub;
    }
    const publicJwk: JWK = { ...jwk, alg: 'ES256', use: 'sig', kid: jwk.kid ?? sha256(JSON.stringify([jwk.crv, jwk.x, jwk.y])).slice(0, 16) };
    return { privateKey, publicJwk };
  }

  private cookie(name: string, value: string, maxAgeSeconds: number): string {
    return `${name}=${value}; Path=/; Max-Age=${Math.floor(maxAgeSeconds)}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }

  private redirect(res: Response, uri: string, params: Record<string, string | undefined>): void {
    const url = new URL(uri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    res.set('Cache-Control', 'no-store').redirect(303, url.toString());
  }

  private htmlHeaders(res: Response): void {
    res.set({
      'Cache-Control': 'no-store',
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
    });
  }

  private page(res: Response, status: number, title: string, message: string): void {
    this.htmlHeaders(res);
    res.status(status).send(errorPage(title, message));
  }

  private oauthError(res: Response, error: OAuthError, basic = false): void {
    if (error.status === 401 && basic) res.set('WWW-Authenticate', 'Basic realm="oauth"');
    res.status(error.status).set('Cache-Control', 'no-store').json({ error: error.error, error_description: error.description });
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
    if (where === 'oauth token' || where === 'oauth register' || where === 'oauth jwks') {
      return void res.status(500).set('Cache-Control', 'no-store').json({ error: 'server_error', error_description: 'Internal error' });
    }
    this.page(res, 500, 'Something went wrong', 'Start again from your application.');
  }
}
