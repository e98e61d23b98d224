/**
 * `/oauth/callback`: the upstream sends the browser back; the upstream's code is exchanged
 * server-side, its tokens stay in the store under a new grant, and the client gets the proxy's
 * own single-use code at its redirect URI.
 */
import type { Request, Response } from 'express';
import { HttpErrorCode } from '../errors.js';
import { CODE_TTL_MS, cookieOf, random, safeEqual, sha256, single, type Grant, type Pending, type ProxyContext } from './context.js';
import type { OAuthUpstreamTokens } from './oauth-proxy-options.interface.js';
import { cookie, page, redirectToClient } from './responses.js';

/** GET /oauth/callback. */
export async function callbackEndpoint(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  const state = single(req.query.state) ?? '';
  const entry = state.length <= 128 ? await ctx.store.take('upstream-state', state) : undefined;
  const txn = entry?.txn as string | undefined;
  // The browser that consented must be the one coming back (an upstream link sent to a victim fails here).
  if (!entry || !txn || !safeEqual(cookieOf(req, ctx.cookies.txn) ?? '', txn)) {
    return page(
      res,
      400,
      'Sign-in could not be completed',
      'This sign-in was not started in this browser, or it has expired. Start again from your application.',
    );
  }
  res.append('Set-Cookie', cookie(ctx.secure, ctx.cookies.txn, '', 0));
  const pending = (await ctx.store.take('pending', txn)) as Pending | undefined;
  if (!pending) return page(res, 400, 'This request has expired', 'Start again from your application.');
  const back = (params: Record<string, string | undefined>) => redirectToClient(res, ctx.issuer, pending.redirectUri, { ...params, state: pending.state });
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
    tokens = await ctx.upstream.exchange(code, entry.verifier as string);
    subject = await ctx.upstream.subjectOf(tokens);
  } catch (error) {
    ctx.report(error, 'oauth upstream token exchange', HttpErrorCode.OAuthUpstream);
    return back({ error: 'server_error', error_description: 'The identity provider could not be reached or refused the sign-in' });
  }
  if (!subject) {
    return back({ error: 'server_error', error_description: 'The identity provider did not say who signed in' });
  }
  const gid = random();
  const grant: Grant = { subject, clientId: pending.clientId, scopes: pending.scopes, resource: pending.resource, upstream: tokens };
  await ctx.store.set('grant', gid, { ...grant }, ctx.ttl.refresh * 1000);
  const ourCode = random();
  await ctx.store.set(
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
  back({ code: ourCode });
}
