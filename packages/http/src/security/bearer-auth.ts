/**
 * Bearer-token authentication (RFC 6750) through the application's `verify` hook: no token ->
 * 401 `WWW-Authenticate: Bearer` (plus `resource_metadata`, RFC 9728), a token `verify` refuses
 * (undefined or a throw) -> 401 with `error="invalid_token"`. Tokens are read from the
 * Authorization header only, never from the query string.
 */
import type { IncomingMessage } from 'node:http';
import { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { AuthOptions } from '../http-options.interface.js';

/** The path of the RFC 9728 metadata document. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

export class BearerAuth {
  constructor(private readonly options: AuthOptions) {}

  /** The principal for the request; throws a 401 HttpTransportError. */
  async authenticate(req: IncomingMessage, metadataUrl: () => string | undefined): Promise<unknown> {
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) {
      throw this.challenge(HttpErrorCode.MissingToken, 'Unauthorized: send a bearer token in the Authorization header', metadataUrl());
    }
    let principal: unknown;
    try {
      principal = await this.options.verify(match[1], req);
    } catch {
      principal = undefined;
    }
    if (principal === undefined || principal === null) {
      throw this.challenge(HttpErrorCode.InvalidToken, 'Unauthorized: the bearer token is invalid or expired', metadataUrl(), 'invalid_token');
    }
    return principal;
  }

  private challenge(code: HttpErrorCodeValue, message: string, metadata?: string, error?: string): HttpTransportError {
    const params: string[] = [];
    if (error) params.push(`error="${error}"`);
    if (metadata) params.push(`resource_metadata="${metadata}"`);
    const header = params.length ? `Bearer ${params.join(', ')}` : 'Bearer';
    return new HttpTransportError(code, message, { headers: { 'WWW-Authenticate': header } });
  }
}
