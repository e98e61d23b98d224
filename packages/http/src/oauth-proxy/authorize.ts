/**
 * `/oauth/authorize` and the consent page. PKCE S256 required (plain refused), the redirect URI
 * exactly as registered, `state` echoed, `resource` (RFC 8707) equal to this server's; then the
 * proxy's consent (the upstream client is shared by every MCP client, so each client needs the
 * user's own consent before the upstream is asked: confused-deputy protection), then the upstream
 * with the proxy's pre-registered client and its own PKCE and state, bound to the browser by a cookie.
 */
import type { Request, Response } from 'express';
import { ClientDocumentError } from './cimd.js';
import { findClient, type KnownClient } from './clients.js';
import { cookieOf, OAUTH_PROXY_PATHS, PENDING_TTL_MS, random, safeEqual, sha256, single, type Pending, type ProxyContext } from './context.js';
import { consentPage } from './pages.js';
import { cookie, htmlHeaders, page, redirectToClient } from './responses.js';

const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** GET /oauth/authorize. */
export async function authorizeEndpoint(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  const q = req.query;
  // A parameter sent twice is refused (RFC 6749 §3.1), never read as absent.
  if (Array.isArray(q.client_id) || Array.isArray(q.redirect_uri)) {
    return page(res, 400, 'Invalid request', 'The application sent client_id or redirect_uri more than once. Nothing was sent to it.');
  }
  let client: KnownClient | undefined;
  try {
    client = await findClient(ctx, single(q.client_id));
  } catch (error) {
    // Before the redirect URI is known good: an error page, never a redirect.
    if (error instanceof ClientDocumentError) return page(res, 400, 'Unknown client', `${capitalise(error.message)}. Nothing was sent to the application.`);
    throw error;
  }
  if (!client) return page(res, 400, 'Unknown client', 'The application that sent you here is not registered with this server.');
  const requested = single(q.redirect_uri);
  // Exactly as registered (no prefix or pattern match); left out only when a single one is registered.
  const redirectUri = requested ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
    return page(res, 400, 'Invalid redirect URI', 'The application asked to return to an address it did not register. Nothing was sent to it.');
  }
  const state = single(q.state);
  const back = (error: string, description: string) => redirectToClient(res, ctx.issuer, redirectUri, { error, error_description: description, state });
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
  if (resources.length > 1 || (resources.length === 1 && resources[0] !== ctx.resource)) {
    return back('invalid_target', `The only resource this server issues tokens for is ${ctx.resource}`);
  }
  const scopes = requestedScopes(ctx.scopes, single(q.scope), client.scope);
  if (!scopes) return back('invalid_scope', 'A requested scope is not offered to this client');
  const txn = random();
  const pending: Pending = { clientId: client.client_id, redirectUri, state, codeChallenge: challenge, scopes, resource: ctx.resource, csrf: random() };
  await ctx.store.set('pending', txn, { ...pending }, PENDING_TTL_MS);
  const browser = cookieOf(req, ctx.cookies.browser);
  if (browser && ctx.ttl.consent > 0 && (await ctx.store.get('consent', `${browser}|${client.client_id}`))) {
    return toUpstream(ctx, res, txn);
  }
  res.redirect(303, `${ctx.issuer}${OAUTH_PROXY_PATHS.consent}?txn=${encodeURIComponent(txn)}`);
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The scopes asked for (all the client may have when `scope` is left out), or undefined when one is not allowed. */
export function requestedScopes(offered: readonly string[], scope: string | undefined, registered: string | undefined): string[] | undefined {
  const allowed = registered ? registered.split(' ').filter((s) => offered.includes(s)) : offered;
  if (scope === undefined || scope.trim() === '') return [...allowed];
  const asked = [...new Set(scope.split(' ').filter(Boolean))];
  return asked.every((s) => allowed.includes(s)) ? asked : undefined;
}

/** GET /oauth/consent: the form, with a CSRF token split between a cookie and the pending request. */
export async function consentForm(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  const txn = single(req.query.txn) ?? '';
  const pending = txn.length <= 64 ? ((await ctx.store.get('pending', txn)) as Pending | undefined) : undefined;
  if (!pending) return page(res, 400, 'This request has expired', 'Start again from your application.');
  const client = await findClient(ctx, pending.clientId).catch((error: unknown) => {
    if (error instanceof ClientDocumentError) return undefined;
    throw error;
  });
  if (!client) return page(res, 400, 'Unknown client', 'The application is no longer registered, or its metadata document can no longer be used.');
  const csrf = random();
  res.setHeader('Set-Cookie', cookie(ctx.secure, ctx.cookies.csrf, csrf, PENDING_TTL_MS / 1000));
  htmlHeaders(res);
  const up = ctx.options.upstream;
  res.status(200).send(
    consentPage({
      action: `${ctx.issuer}${OAUTH_PROXY_PATHS.consent}`,
      txn,
      csrf: `${csrf}.${pending.csrf}`,
      clientName: client.client_name,
      clientId: client.client_id,
      redirectUri: pending.redirectUri,
      scopes: pending.scopes,
      upstreamScopes: up.scopes ?? ['openid'],
      // Named from the configuration: showing the page never calls the upstream.
      upstream: new URL(up.authorizationEndpoint ?? up.issuer!).host,
      resource: pending.resource,
    }),
  );
}

/** POST /oauth/consent: the user's decision, accepted only from the page this browser was shown. */
export async function consentDecision(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const txn = single(body.txn) ?? '';
  const [cookieCsrf, pendingCsrf] = (single(body.csrf) ?? '').split('.');
  const origin = req.headers.origin;
  // A consent is the user's own: posted from this page (same origin, the cookie set with the form).
  const sameBrowser = !!cookieCsrf && safeEqual(cookieOf(req, ctx.cookies.csrf) ?? '', cookieCsrf) && (origin === undefined || origin === ctx.issuer);
  const pending = txn.length <= 64 ? ((await ctx.store.get('pending', txn)) as Pending | undefined) : undefined;
  if (!pending || !sameBrowser || !pendingCsrf || !safeEqual(pending.csrf, pendingCsrf)) {
    return page(res, 403, 'Consent not accepted', 'The consent form was not submitted from this page. Start again from your application.');
  }
  res.append('Set-Cookie', cookie(ctx.secure, ctx.cookies.csrf, '', 0));
  if (body.decision !== 'approve') {
    await ctx.store.delete('pending', txn);
    return redirectToClient(res, ctx.issuer, pending.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied the request',
      state: pending.state,
    });
  }
  if (ctx.ttl.consent > 0) {
    let browser = cookieOf(req, ctx.cookies.browser);
    if (!browser || browser.length > 64) {
      browser = random();
      res.append('Set-Cookie', cookie(ctx.secure, ctx.cookies.browser, browser, ctx.ttl.consent));
    }
    await ctx.store.set('consent', `${browser}|${pending.clientId}`, { at: Date.now() }, ctx.ttl.consent * 1000);
  }
  await toUpstream(ctx, res, txn);
}

/** Sends the browser to the upstream with the proxy's own client, PKCE and state, bound to this browser. */
async function toUpstream(ctx: ProxyContext, res: Response, txn: string): Promise<void> {
  const endpoints = await ctx.upstream.endpoints();
  const state = random();
  const verifier = random(48);
  await ctx.store.set('upstream-state', state, { txn, verifier }, PENDING_TTL_MS);
  const up = ctx.options.upstream;
  const url = new URL(endpoints.authorization);
  for (const [k, v] of Object.entries(up.authorizationParams ?? {})) url.searchParams.set(k, v);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', up.clientId);
  url.searchParams.set('redirect_uri', `${ctx.issuer}${OAUTH_PROXY_PATHS.callback}`);
  url.searchParams.set('scope', (up.scopes ?? ['openid']).join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', sha256(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  res.append('Set-Cookie', cookie(ctx.secure, ctx.cookies.txn, txn, PENDING_TTL_MS / 1000));
  res.redirect(303, url.toString());
}
