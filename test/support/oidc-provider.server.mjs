// A real OAuth 2.1 / OpenID Connect authorization server for the tests: oidc-provider 9, run in its own
// Node process (it is ESM only; Jest runs the suite as CommonJS), forked by test/support/oidc-provider.ts
// and configured from the OIDC_TEST_CONFIG environment variable. Besides the provider's own endpoints it
// serves a tiny login and consent UI at /interaction/:uid (plain HTML forms, checked against the
// configured users). The harness talks to it over the IPC channel only: it announces
// {type:'ready', issuer}, reports every HTTP request it receives as {type:'seen', ...}, and answers
// {id, type:'keys'|'resource'|'ttl'|'counters'} with {id, result} or {id, error}.
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import Provider, { errors } from 'oidc-provider';

const config = JSON.parse(process.env.OIDC_TEST_CONFIG);
const counters = { jwks: 0, introspection: 0 };
let keys = config.jwks;
let nextTtlSec;

const resourceScopes = () => new Set(Object.values(config.resources).flatMap((r) => r.scope.split(' ').filter(Boolean)));

function build(issuer) {
  const provider = new Provider(issuer, {
    clients: config.clients,
    jwks: { keys },
    cookies: { keys: [config.cookieKey] },
    claims: { openid: ['sub'], email: ['email'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.test` }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Resource scopes are advertised too, so clients may name them in their registration (RFC 7591 `scope`).
    scopes: ['openid', 'offline_access', ...config.scopes, ...resourceScopes()],
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
          return {
            scope: resource.scope,
            audience: resource.audience ?? indicator,
            accessTokenTTL: nextTtlSec ?? resource.ttlSec ?? 600,
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
  const form = new URLSearchParams(req.body);
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
    // The consent form's `grant` field: the scopes the user allows (absent: all asked for); the rest are declined.
    const allowed = form.has('grant') ? new Set(form.get('grant').split(' ').filter(Boolean)) : undefined;
    const limited = resourceScopes();
    if (d.missingOIDCScope) {
      const yes = d.missingOIDCScope.filter((s) => !allowed || !limited.has(s) || allowed.has(s));
      const no = d.missingOIDCScope.filter((s) => !yes.includes(s));
      if (yes.length) grant.addOIDCScope(yes.join(' '));
      if (no.length) grant.rejectOIDCScope(no.join(' '));
    }
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
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

function rebuild() {
  provider = build(config.issuer);
  callback = provider.callback();
}

// Requests from the harness over IPC; each is answered with its id.
process.on('message', (msg) => {
  if (typeof msg?.id !== 'number') return;
  if (msg.type === 'keys') {
    keys = msg.keys;
    rebuild();
  } else if (msg.type === 'resource') {
    config.resources[msg.indicator] = msg.info;
    config.defaultResource ??= msg.indicator;
    rebuild();
  } else if (msg.type === 'ttl') {
    nextTtlSec = msg.ttlSec ?? undefined;
  } else if (msg.type !== 'counters') {
    return void process.send({ id: msg.id, error: `unknown request ${msg.type}` });
  }
  process.send({ id: msg.id, result: { ...counters } });
});
process.on('disconnect', () => process.exit(0));

const server = createServer((req, res) => {
  const fail = (error) => {
    process.stderr.write(`oidc test server: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500).end();
    else res.end();
  };
  // Every request reaches the test's log first (method, path, headers, body). A POST body is read here,
  // capped, and handed on as req.body, which oidc-provider takes when the stream is already spent.
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > 64 * 1024) return void req.destroy(new Error('body too large'));
    chunks.push(chunk);
  });
  req.on('error', fail);
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0];
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'POST') req.body = body;
    process.send({ type: 'seen', method: req.method, path: req.url, headers: req.headers, body });
    const match = /^\/interaction\/([^/]+)(?:\/(login|confirm))?$/.exec(path);
    if (match) return void interaction(req, res, match[1], match[2]).catch(fail);
    if (path === '/jwks') counters.jwks++;
    if (path === '/token/introspection') counters.introspection++;
    callback(req, res);
  });
});

server.listen(0, '127.0.0.1', () => {
  config.issuer = `http://127.0.0.1:${server.address().port}`;
  rebuild();
  process.send({ type: 'ready', issuer: config.issuer });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
