// A real OAuth 2.1 / OpenID Connect authorization server for the tests: oidc-provider, run in its
// own Node process (it is ESM only), configured from the OIDC_TEST_CONFIG environment variable by
// test/support/oidc-provider.ts. Besides the provider's own endpoints it serves a tiny login and
// consent UI at /interaction/:uid (plain HTML forms) and, for the harness only, /__admin/* behind
// a random bearer secret: key rotation, the next access-token lifetime, request counters.
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import Provider, { errors } from 'oidc-provider';

const config = JSON.parse(process.env.OIDC_TEST_CONFIG);
const counters = { jwks: 0, introspection: 0 };
let keys = config.jwks;
let nextTtlSec;

function build(issuer) {
  const provider = new Provider(issuer, {
    clients: config.clients,
    jwks: { keys },
    cookies: { keys: [config.cookieKey] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Resource scopes are advertised too, so clients may name them in their registration (RFC 7591 `scope`).
    scopes: ['openid', 'offline_access', ...new Set(Object.values(config.resources).flatMap((r) => r.scope.split(' ')))],
    ttl: {
      ClientCredentials: (_ctx, token) => nextTtlSec ?? token.resourceServer?.accessTokenTTL ?? 600,
      AccessToken: (_ctx, token) => nextTtlSec ?? token.resourceServer?.accessTokenTTL ?? 600,
      Session: 3600,
      Grant: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
      RefreshToken: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => config.introspectors.includes(client.clientId) || client.clientId === token.clientId,
      },
      revocation: { enabled: true },
      registration: { enabled: config.registration },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => (oneOf ? oneOf[0] : config.defaultResource),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          const resource = config.resources[indicator];
          if (!resource) throw new errors.InvalidTarget();
          const ttl = nextTtlSec ?? resource.ttlSec ?? 600;
          return {
            scope: resource.scope,
            audience: indicator,
            accessTokenTTL: ttl,
            accessTokenFormat: resource.format ?? 'jwt',
            ...(resource.format === 'opaque' ? {} : { jwt: { sign: { alg: 'RS256' } } }),
          };
        },
      },
    },
  });
  provider.proxy = false;
  return provider;
}

const page = (title, body) => `<!doctype html><title>${title}</title><h1>${title}</h1>${body}`;

async function readText(req) {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 64 * 1024) throw new Error('body too large');
  }
  return text;
}

const readForm = async (req) => new URLSearchParams(await readText(req));

let provider;
let callback;

async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (details.prompt.name === 'login') {
      res.end(
        page(
          'Sign in',
          `<form method="post" action="/interaction/${uid}/login"><input name="login"><input name="password" type="password"><button>Sign in</button></form>`,
        ),
      );
    } else {
      const scopes = Object.values(details.prompt.details.missingResourceScopes ?? {})
        .flat()
        .join(' ');
      res.end(
        page(
          'Consent',
          `<p data-scopes="${scopes}">Allow ${details.params.client_id}?</p><form method="post" action="/interaction/${uid}/confirm"><button>Allow</button></form>`,
        ),
      );
    }
    return;
  }
  const form = await readForm(req);
  if (action === 'login') {
    const login = form.get('login');
    if (!login || config.users[login] === undefined || config.users[login] !== form.get('password')) {
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(page('Sign in failed', ''));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    return;
  }
  if (action === 'confirm') {
    const { prompt, params, session, grantId } = details;
    const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const d = prompt.details;
    const allowed = form.has('grant') ? new Set(form.get('grant').split(' ').filter(Boolean)) : undefined;
    const resourceScopes = new Set(Object.values(config.resources).flatMap((r) => r.scope.split(' ')));
    if (d.missingOIDCScope) {
      const yes = d.missingOIDCScope.filter((s) => !allowed || !resourceScopes.has(s) || allowed.has(s));
      const no = d.missingOIDCScope.filter((s) => !yes.includes(s));
      if (yes.length) grant.addOIDCScope(yes.join(' '));
      if (no.length) grant.rejectOIDCScope(no.join(' '));
    }
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    // The consent form's `grant` field: the scopes the user allows (absent: all asked for); the rest are declined.
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) {
      const yes = scopes.filter((s) => !allowed || allowed.has(s));
      const no = scopes.filter((s) => allowed && !allowed.has(s));
      if (yes.length) grant.addResourceScope(indicator, yes.join(' '));
      if (no.length) grant.rejectResourceScope(indicator, no.join(' '));
    }
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    return;
  }
  res.writeHead(404).end();
}

async function admin(req, res, path) {
  if (req.headers.authorization !== `Bearer ${config.adminSecret}`) return void res.writeHead(401).end();
  const body = req.method === 'POST' ? JSON.parse((await readText(req)) || '{}') : undefined;
  if (path === '/__admin/rotate') {
    keys = body.keys;
    provider = build(config.issuer);
    callback = provider.callback();
  } else if (path === '/__admin/resource') {
    config.resources[body.indicator] = body.info;
    config.defaultResource ??= body.indicator;
    provider = build(config.issuer);
    callback = provider.callback();
  } else if (path === '/__admin/ttl') {
    nextTtlSec = body.ttlSec ?? undefined;
  } else if (path !== '/__admin/stats') {
    return void res.writeHead(404).end();
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counters));
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const done = (error) => {
    process.stderr.write(`oidc test server: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500).end();
    else res.end();
  };
  if (path.startsWith('/__admin/')) return void admin(req, res, path).catch(done);
  const match = /^\/interaction\/([^/]+)(?:\/(login|confirm))?$/.exec(path);
  if (match) return void interaction(req, res, match[1], match[2]).catch(done);
  if (path === '/jwks') counters.jwks++;
  if (path === '/token/introspection') counters.introspection++;
  callback(req, res);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  config.issuer = `http://127.0.0.1:${port}`;
  provider = build(config.issuer);
  callback = provider.callback();
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
