/** How the proxy answers: redirects to the client, its HTML pages, OAuth JSON errors and cookies. */
import type { Response } from 'express';
import type { OAuthError } from './context.js';
import { errorPage } from './pages.js';

export function cookie(secure: boolean, name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${Math.floor(maxAgeSeconds)}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * A 303 to the client's redirect URI with `params` added to its query (undefined ones left out),
 * never cached, and always with `iss` (RFC 9207 §2): codes and errors alike, so a client talking
 * to several authorization servers can tell which one answered (mix-up defence).
 */
export function redirectToClient(res: Response, issuer: string, uri: string, params: Record<string, string | undefined>): void {
  const url = new URL(uri);
  for (const [k, v] of Object.entries({ ...params, iss: issuer })) if (v !== undefined) url.searchParams.set(k, v);
  res.set('Cache-Control', 'no-store').redirect(303, url.toString());
}

export function htmlHeaders(res: Response): void {
  res.set({
    'Cache-Control': 'no-store',
    'Content-Type': 'text/html; charset=utf-8',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
  });
}

export function page(res: Response, status: number, title: string, message: string): void {
  htmlHeaders(res);
  res.status(status).send(errorPage(title, message));
}

export function oauthError(res: Response, error: OAuthError, basic = false): void {
  if (error.status === 401 && basic) res.set('WWW-Authenticate', 'Basic realm="oauth"');
  res.status(error.status).set('Cache-Control', 'no-store').json({ error: error.error, error_description: error.description });
}
