/**
 * The proxy's side of the upstream identity provider: its endpoints (given, or discovered once),
 * the server-side code exchange with the proxy's pre-registered client, and who signed in.
 */
import { fetchJsonObject } from '../outbound/fetch-json.js';
import { fetchIssuerMetadata, metadataUrl } from '../outbound/issuer-metadata.js';
import type { OAuthProxyUpstream, OAuthUpstreamTokens } from './oauth-proxy-options.interface.js';

const MAX_UPSTREAM_BYTES = 64 * 1024;

/** The upstream's endpoints. */
export interface UpstreamEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly issuer?: string;
}

export class Upstream {
  private discovered?: Promise<UpstreamEndpoints>;

  constructor(
    readonly config: OAuthProxyUpstream,
    /** Where the upstream sends the browser back (`{issuer}/oauth/callback`). */
    private readonly callbackUrl: string,
    private readonly jose: Promise<typeof import('jose')>,
  ) {}

  /** The endpoints: as configured, or from the issuer's metadata (fetched once; a failure is retried next time). */
  endpoints(): Promise<UpstreamEndpoints> {
    const up = this.config;
    if (up.authorizationEndpoint && up.tokenEndpoint) {
      return Promise.resolve({ authorization: up.authorizationEndpoint, token: up.tokenEndpoint, issuer: up.issuer });
    }
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = undefined;
      throw error;
    });
    return this.discovered;
  }

  private async discover(): Promise<UpstreamEndpoints> {
    const up = this.config;
    const issuer = up.issuer!;
    const doc = await fetchIssuerMetadata(issuer, up.timeoutMs ?? 10_000);
    return {
      authorization: up.authorizationEndpoint ?? metadataUrl(doc, 'authorization_endpoint', issuer),
      token: up.tokenEndpoint ?? metadataUrl(doc, 'token_endpoint', issuer),
      issuer: doc.issuer as string,
    };
  }

  /** The upstream's tokens for its `code`, exchanged server to server with the proxy's client and PKCE verifier. */
  async exchange(code: string, verifier: string): Promise<OAuthUpstreamTokens> {
    const up = this.config;
    const { token } = await this.endpoints();
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.callbackUrl, code_verifier: verifier });
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

  /** The user's stable id: the configured `subject()`, or the `sub` of the ID token received on the back channel. */
  async subjectOf(tokens: OAuthUpstreamTokens): Promise<string | undefined> {
    if (this.config.subject) return this.config.subject(tokens);
    if (typeof tokens.id_token !== 'string') return undefined;
    // Received straight from the upstream's token endpoint on the back channel (OIDC Core 3.1.3.7).
    const claims = (await this.jose).decodeJwt(tokens.id_token);
    const { issuer } = await this.endpoints();
    if (issuer && claims.iss !== issuer) return undefined;
    const clientId = this.config.clientId;
    if (claims.aud !== clientId && !(Array.isArray(claims.aud) && claims.aud.includes(clientId))) return undefined;
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  }

  /** A JSON answer of the upstream's token endpoint; an error answer without an access token throws. */
  private async fetchJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    const { status, body } = await fetchJsonObject(url, init, { timeoutMs: this.config.timeoutMs ?? 10_000, maxBytes: MAX_UPSTREAM_BYTES });
    if ((status < 200 || status > 299) && typeof body.access_token !== 'string') {
      const error = body.error;
      throw new Error(`the upstream answered ${status}${typeof error === 'string' ? ` ${error.slice(0, 100)}` : ''}`);
    }
    return body;
  }
}
