// A real oidc-provider (9.x) on 127.0.0.1 for the tests, in its own process: oidc-provider is ESM only and
// Jest runs the suite as CommonJS. Configured by the JSON in argv[2]; prints `{"issuer": ...}` on its first
// stdout line when it listens. IPC: {type:'rotate'} swaps in a new signing key (the old one is dropped, so
// tokens it signed carry a kid the JWKS no longer has), answered with {type:'rotated'}.
// Development interactions are on: GET the interaction URL, POST its login form (any login), then its
// consent form, exactly as a browser would.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');

function signingKey() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, alg: 'ES256', use: 'sig' };
}

let handler = () => {};
const server = createServer((req, res) => handler(req, res));
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const build = () => {
    const resourceServers = options.resourceServers ?? {};
    const provider = new Provider(issuer, {
      clients: options.clients ?? [],
      clientDefaults: { id_token_signed_response_alg: 'ES256', grant_types: ['authorization_code'], response_types: ['code'] },
      jwks: { keys: [signingKey()] },
      cookies: { keys: ['test-cookie-key'] },
      pkce: { required: () => true },
      scopes: ['openid', 'offline_access', ...(options.scopes ?? [])],
      claims: { openid: ['sub'], email: ['email'] },
      findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.test` }) }),
      ttl: { AccessToken: options.accessTokenTtl ?? 3600 },
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: options.registration === true },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => options.defaultResource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            const info = resourceServers[indicator];
            if (!info) throw new Provider.errors.InvalidTarget();
            return {
              scope: info.scope ?? '',
              audience: info.audience ?? indicator,
              accessTokenTtl: info.accessTokenTtl,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'ES256' } },
            };
          },
        },
      },
    });
    provider.proxy = false;
    const callback = provider.callback();
    // Every request reaches the test's log first (path, headers, body), so a test can check what the upstream
    // received. A body is read here and handed over as req.body, which oidc-provider takes when the stream is spent.
    return (req, res) => {
      if (req.method !== 'POST') {
        process.send?.({ type: 'seen', method: req.method, path: req.url, headers: req.headers, body: '' });
        callback(req, res);
        return;
      }
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        req.body = Buffer.concat(chunks).toString('utf8');
        process.send?.({ type: 'seen', method: req.method, path: req.url, headers: req.headers, body: req.body });
        callback(req, res);
      });
    };
  };
  handler = build();
  process.on('message', (msg) => {
    if (msg?.type === 'rotate') {
      handler = build();
      process.send?.({ type: 'rotated' });
    } else if (msg?.type === 'close') {
      server.close();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
