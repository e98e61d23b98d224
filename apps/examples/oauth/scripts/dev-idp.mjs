// A local OpenID provider to try the protected notes server with (development only, never in
// production): oidc-provider with its development login page (any user name and password),
// dynamic client registration on (RFC 7591: MCP clients register themselves), and JWT access
// tokens (RFC 9068, ES256) for any loopback MCP server that asks, carrying notes:read and
// notes:write as the user allows. Its keys are published at /jwks, which the server finds through
// /.well-known/openid-configuration.
//
//   IDP_PORT  where it listens on 127.0.0.1 (default 9000)
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

const SCOPES = ['notes:read', 'notes:write'];
const LOOPBACK_RESOURCE = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

const port = Number(process.env.IDP_PORT ?? 9000);
const key = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'dev-1', alg: 'ES256', use: 'sig' };

const server = createServer();
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [key] },
    cookies: { keys: [randomBytes(24).toString('base64url')] },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes: ['openid', 'offline_access', ...SCOPES],
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!LOOPBACK_RESOURCE.test(indicator)) throw new errors.InvalidTarget('this development provider issues tokens for loopback servers only');
          return { scope: SCOPES.join(' '), audience: indicator, accessTokenTTL: 600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });
  server.on('request', provider.callback());
  process.stderr.write(`Identity provider at ${issuer} (sign in with any user name and password; development only)\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
