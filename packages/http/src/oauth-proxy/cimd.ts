/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25): a
 * client whose `client_id` is an https URL is the document at that URL. The proxy:
 * - checks the URL (https, a path, no fragment, credentials or dot segments) and the trust policy
 *   (`trustedHosts`) before fetching anything;
 * - fetches it through the SSRF guard (outbound/guarded-fetch.ts: public addresses only unless
 *   allowed, a few redirects each re-checked, size and time capped);
 * - validates it: `client_id` equal to the URL, redirect URIs as for registration, a public
 *   client (`none`; a document cannot carry a shared secret), grants and scopes it may have;
 * - caches it, bounded (least recently used out), for as long as its `Cache-Control` / `Expires`
 *   say, capped by `maxCacheSeconds`; `no-store` / `no-cache` are fetched again each time.
 * A refusal is a {@link ClientDocumentError} whose message says why, for the error page or the
 * token endpoint's `invalid_client`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { guardedGet, type GuardedAnswer } from '../outbound/guarded-fetch.js';
import type { OAuthProxyClientMetadataDocuments } from './oauth-proxy-options.interface.js';
import { checkClientMetadata, RegistrationError, type RegisteredClient } from './registration.js';

/** A client known by its metadata document. */
export type DocumentClient = RegisteredClient & { client_id: string };

/** Why a metadata document client is refused. */
export class ClientDocumentError extends Error {
  override readonly name = 'ClientDocumentError';
}

/** Whether `clientId` is meant as a metadata document URL (then it is never looked up as a registered id). */
export const isDocumentClientId = (clientId: string): boolean => clientId.startsWith('https://');

interface Cached {
  readonly client: DocumentClient;
  readonly expiresAt: number;
}

export class ClientMetadataDocuments {
  private readonly cache = new Map<string, Cached>();
  private readonly inflight = new Map<string, Promise<DocumentClient>>();
  private readonly maxEntries: number;

  constructor(
    private readonly options: OAuthProxyClientMetadataDocuments,
    private readonly limits: { maxRedirectUris: number; scopes: readonly string[] },
  ) {
    this.maxEntries = options.maxCacheEntries ?? 1000;
  }

  /** Documents cached now (for tests and health). */
  get size(): number {
    return this.cache.size;
  }

  /** The client the document at `url` describes, or throws a {@link ClientDocumentError}. */
  async client(url: string): Promise<DocumentClient> {
    checkDocumentUrl(url, this.options.trustedHosts);
    const hit = this.cache.get(url);
    if (hit && hit.expiresAt > Date.now()) {
      this.cache.delete(url); // most recently used last
      this.cache.set(url, hit);
      return hit.client;
    }
    if (hit) this.cache.delete(url);
    // One fetch for every request waiting on the same document.
    let pending = this.inflight.get(url);
    if (!pending) {
      pending = this.fetch(url).finally(() => this.inflight.delete(url));
      this.inflight.set(url, pending);
    }
    return pending;
  }

  private async fetch(url: string): Promise<DocumentClient> {
    let answer: GuardedAnswer;
    try {
      answer = await guardedGet(
        url,
        { accept: 'application/json' },
        { timeoutMs: this.options.timeoutMs ?? 5000, maxBytes: this.options.maxBytes ?? 5120 },
        { allowAddresses: this.options.allowAddresses, ca: this.options.ca, maxRedirects: 3 },
      );
    } catch (error) {
      throw new ClientDocumentError(`the client's metadata document could not be fetched: ${(error as Error).message}`);
    }
    if (answer.status !== 200) throw new ClientDocumentError(`the client's metadata document answered ${answer.status}, not 200`);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      throw new ClientDocumentError("the client's metadata document is not JSON");
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ClientDocumentError("the client's metadata document is not a JSON object");
    const client = checkDocument(body as Record<string, unknown>, url, this.limits);
    const seconds = cacheSeconds(answer.headers, this.options.defaultCacheSeconds ?? 300, this.options.maxCacheSeconds ?? 86_400);
    if (seconds > 0) {
      this.cache.set(url, { client, expiresAt: Date.now() + seconds * 1000 });
      while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    }
    return client;
  }
}

/** Throws unless `url` may be a metadata document's URL under the trust policy. */
export function checkDocumentUrl(url: string, trustedHosts: readonly string[]): void {
  const refuse = (why: string): never => {
    throw new ClientDocumentError(`the client_id is not a usable metadata document URL: ${why}`);
  };
  if (url.length > 2000) refuse('it is longer than 2000 characters');
  if (!URL.canParse(url)) refuse('it is not a URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') refuse('it must use https');
  if (parsed.pathname === '/' || parsed.pathname === '') refuse('it must have a path');
  if (url.includes('#')) refuse('it must not have a fragment');
  if (parsed.username || parsed.password) refuse('it must not carry credentials');
  if (/\/\.\.?(\/|$)/.test(url.slice(url.indexOf('//') + 2))) refuse('it must not have dot segments');
  const host = parsed.hostname.toLowerCase();
  if (!trustedHosts.some((pattern) => hostMatches(host, pattern))) refuse(`${host} is not a trusted client host on this server`);
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** The client of a fetched document, or throws a {@link ClientDocumentError}. */
export function checkDocument(body: Record<string, unknown>, url: string, limits: { maxRedirectUris: number; scopes: readonly string[] }): DocumentClient {
  const refuse = (why: string): never => {
    throw new ClientDocumentError(`the client's metadata document is not acceptable: ${why}`);
  };
  if (body.client_id !== url) refuse('its client_id is not the URL it was fetched from');
  if ('client_secret' in body || 'client_secret_expires_at' in body) refuse('it must not carry a client_secret');
  // RFC 7591's default is client_secret_basic, which no document can use: left out, it is a public client.
  const method = body.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    refuse(
      `token_endpoint_auth_method must be none (got ${typeof method === 'string' ? method.slice(0, 40) : typeof method}): a document cannot share a secret`,
    );
  let client: RegisteredClient;
  try {
    client = checkClientMetadata({ ...body, token_endpoint_auth_method: 'none' }, limits);
  } catch (error) {
    if (error instanceof RegistrationError) return refuse(error.description);
    throw error;
  }
  return { ...client, client_id: url };
}

/** Seconds a document may be cached: 0 for no-store / no-cache, else max-age or Expires, capped. */
export function cacheSeconds(headers: IncomingHttpHeaders, fallback: number, max: number): number {
  const control = (headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(control)) return 0;
  const maxAge = /(^|[\s,])max-age\s*=\s*"?(\d+)"?/.exec(control);
  let seconds: number;
  if (maxAge) {
    seconds = Number(maxAge[2]) - Number(headers.age ?? 0);
  } else if (typeof headers.expires === 'string') {
    const at = Date.parse(headers.expires);
    const now = typeof headers.date === 'string' && !Number.isNaN(Date.parse(headers.date)) ? Date.parse(headers.date) : Date.now();
    seconds = Number.isNaN(at) ? 0 : Math.floor((at - now) / 1000); // an invalid Expires means already expired (RFC 9111 §5.3)
  } else {
    seconds = fallback;
  }
  return Math.max(0, Math.min(seconds, max));
}
