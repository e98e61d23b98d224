// A local OpenID provider to try the OAuth sign-in with (`npm run idp`): oidc-provider with its
// development login page (any user name and password), dynamic registration off like most real
// providers, and one client registered for this server. For development only.
//
//   IDP_PORT  where it listens on 127.0.0.1 (default 9000)
//   MCP_URL   where this server runs (default http://127.0.0.1:3000): its /oauth/callback is the client's redirect URI
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.IDP_PORT ?? 9000);
const mcpUrl = (process.env.MCP_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const client = { client_id: '{{name}}-dev', client_secret: 'dev-secret-not-for-production' };

const key = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'dev', alg: 'ES256', use: 'sig' };
const server = createServer();
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [{ ...client, redirect_uris: [`${mcpUrl}/oauth/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    jwks: { keys: [key] },
    cookies: { keys: ['dev-only'] },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: { devInteractions: { enabled: true }, registration: { enabled: false } },
  });
  server.on('request', provider.callback());
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  process.stderr.write(
    `Identity provider at ${issuer} (sign in with any name and password). Start the server with:\n` +
      `  OAUTH_ISSUER=${issuer} OAUTH_CLIENT_ID=${client.client_id} OAUTH_CLIENT_SECRET=${client.client_secret} npm start\n`,
  );
});
