#!/usr/bin/env node
/**
 * `OAUTH_ISSUER=<issuer> node apps/examples/oauth/dist/main.js`: the notes over Streamable HTTP
 * as an OAuth 2.1 resource server. It accepts JWT access tokens of that issuer for this server
 * (`aud` = its URL), finds the issuer's keys through its metadata (`jwks_uri` of
 * `{issuer}/.well-known/openid-configuration`), and tells clients where to sign in (Protected
 * Resource Metadata at /.well-known/oauth-protected-resource).
 *
 * PORT (default 3000) and HOST (default 127.0.0.1) say where it listens.
 */
import { serveHttp } from '@typemcp/http';
import { createProtectedNotesServer } from './server.js';

async function main(): Promise<void> {
  const issuer = process.env.OAUTH_ISSUER;
  if (!issuer) {
    process.stderr.write('Set OAUTH_ISSUER to the issuer URL of the authorization server (node apps/examples/oauth/scripts/dev-idp.mjs starts a local one).\n');
    process.exit(2);
  }
  const listener = await serveHttp(createProtectedNotesServer(), {
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? '127.0.0.1',
    auth: { jwt: { issuer } },
  });
  process.stderr.write(`Notes at ${listener.url}, accepting tokens of ${issuer}\n`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
