/**
 * The proxy's clients: RFC 7591 dynamic registration (the checks are in registration.ts), Client
 * ID Metadata Documents (cimd.ts), and the lookup every other endpoint uses.
 */
import type { Request, Response } from 'express';
import { isDocumentClientId } from './cimd.js';
import { OAuthError, random, sha256, type ProxyContext } from './context.js';
import { checkClientMetadata, RegistrationError, type RegisteredClient } from './registration.js';
import { oauthError } from './responses.js';

/** A client as the proxy keeps it. */
export type KnownClient = RegisteredClient & { client_id: string; client_secret_hash?: string };

/** POST /oauth/register. */
export async function registerEndpoint(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  if (req.method !== 'POST') return void res.status(405).set('Allow', 'POST').end();
  let client: RegisteredClient;
  try {
    client = checkClientMetadata(req.body, { maxRedirectUris: ctx.options.maxRedirectUris ?? 10, scopes: ctx.scopes });
  } catch (error) {
    if (!(error instanceof RegistrationError)) throw error;
    return oauthError(res, new OAuthError(error.error, error.description));
  }
  const clientId = random(16);
  const issuedAt = Math.floor(Date.now() / 1000);
  const secret = client.token_endpoint_auth_method === 'none' ? undefined : random(32);
  const record = { ...client, client_id: clientId, client_id_issued_at: issuedAt, ...(secret ? { client_secret_hash: sha256(secret) } : {}) };
  await ctx.store.set('client', clientId, record, ctx.ttl.client * 1000);
  res
    .status(201)
    .set('Cache-Control', 'no-store')
    .json({ ...client, client_id: clientId, client_id_issued_at: issuedAt, ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) });
}

/**
 * The client `clientId`, or undefined when unknown. An https `client_id` is a metadata document
 * when those are on (fetched or cached); a refused document throws a ClientDocumentError saying why.
 */
export async function findClient(ctx: ProxyContext, clientId: string | undefined): Promise<KnownClient | undefined> {
  if (!clientId) return undefined;
  if (ctx.documents && isDocumentClientId(clientId)) return ctx.documents.client(clientId);
  if (clientId.length > 200) return undefined;
  return (await ctx.store.get('client', clientId)) as KnownClient | undefined;
}
