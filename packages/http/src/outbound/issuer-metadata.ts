/**
 * An authorization server's metadata from its issuer URL: OpenID Connect Discovery
 * (`{issuer}/.well-known/openid-configuration`), then RFC 8414 (`/.well-known/oauth-authorization-server`
 * inserted before the issuer's path), then OpenID's path-inserted form, the order MCP clients use.
 * A document naming another issuer is refused (RFC 8414 section 3.3, OpenID Discovery 4.3), so a
 * server that answers for someone else cannot hand out its endpoints or keys.
 */
import { fetchJsonObject, OutboundError, type OutboundLimits } from './fetch-json.js';

/** Largest metadata document read, in bytes. */
const MAX_METADATA_BYTES = 64 * 1024;

/** The metadata URLs of `issuer`, in the order they are tried. */
export function metadataUrls(issuer: string): string[] {
  const { origin, pathname } = new URL(issuer);
  const path = pathname === '/' ? '' : pathname.replace(/\/$/, '');
  const urls = [`${origin}${path}/.well-known/openid-configuration`, `${origin}/.well-known/oauth-authorization-server${path}`];
  if (path) urls.push(`${origin}/.well-known/openid-configuration${path}`);
  return urls;
}

/**
 * The metadata document of `issuer`, whose `issuer` member must be `issuer` (a trailing slash
 * given or not). Throws an OutboundError when no URL answers 200 with a JSON object, or when one
 * names another issuer.
 */
export async function fetchIssuerMetadata(issuer: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const limits: OutboundLimits = { timeoutMs, maxBytes: MAX_METADATA_BYTES };
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let status: number;
    let body: Record<string, unknown>;
    try {
      ({ status, body } = await fetchJsonObject(url, { method: 'GET', headers: { accept: 'application/json' } }, limits));
    } catch (error) {
      failures.push((error as Error).message);
      continue;
    }
    if (status !== 200) {
      failures.push(`${new URL(url).pathname} answered ${status}`);
      continue;
    }
    if (body.issuer !== issuer && body.issuer !== issuer.replace(/\/$/, '')) throw new OutboundError(`the metadata at ${url} names another issuer`);
    return body;
  }
  throw new OutboundError(`the metadata of ${issuer} could not be fetched (${failures.join('; ')})`);
}

/** Member `name` of a metadata document as an http(s) URL; https when the issuer is https (no downgrade). */
export function metadataUrl(doc: Record<string, unknown>, name: string, issuer: string): string {
  const value = doc[name];
  if (typeof value !== 'string' || !URL.canParse(value)) throw new OutboundError(`the metadata of ${issuer} has no ${name}`);
  const protocol = new URL(value).protocol;
  if (protocol !== 'https:' && !(protocol === 'http:' && new URL(issuer).protocol === 'http:')) {
    throw new OutboundError(`the metadata of ${issuer} names a ${name} that is not ${new URL(issuer).protocol === 'https:' ? 'https' : 'http(s)'}`);
  }
  return value;
}
