/**
 * Verified bearer tokens and scopes against a real authorization server (oidc-provider, started
 * by test/support/oidc-provider.ts): JWT access tokens (RFC 9068) checked for signature, issuer,
 * audience (RFC 8707) and lifetime; opaque tokens by introspection (RFC 7662); the answers of
 * RFC 6750 section 3.1 (401 invalid_token, 403 insufficient_scope) with RFC 9728
 * `resource_metadata`; scopes declared on tools, resources and prompts, in Protected Resource
 * Metadata and in the step-up answer, on every transport era.
 */
import { createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { Context, createServer, getMetadataStorage, McpService, Prompt, Resource, Tool, type Interceptor } from '@typemcp/core';
import { serveHttp, type HttpListener, type ServeHttpOptions } from '@typemcp/http';
import { MetaKey } from '@typemcp/protocol/internal';
import { startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { validateAgainst } from '../../../test/support/spec-schemas';
import { validateTasksExtension } from '../../../test/support/tasks-extension-schema';
import { initialize, JSON_AND_SSE, messagesOf, parseSse, post, SseReader } from './support/http-fixture';

const MODERN = '2026-07-28';
const COOLDOWN_MS = 400;
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function declareNotes(): void {
  getMetadataStorage().reset();
  @McpService({ scopes: ['notes:read'] })
  class Notes {
    @Tool({ description: 'Lists notes' })
    notes_list() {
      return 'no notes yet';
    }

    @Tool({ description: 'Adds a note', scopes: ['notes:write'] })
    notes_add() {
      return 'added';
    }

    // The guard sees the verified principal too: without a subject, whoami would be unknown.
    @Tool({ description: 'Who is calling', guard: (p) => typeof (p as { subject?: unknown } | undefined)?.subject === 'string' })
    whoami(ctx: Context) {
      return JSON.stringify(ctx.principal);
    }

    @Resource('notes://archive', { description: 'The archive', scopes: ['notes:archive'] })
    archive() {
      return 'old notes';
    }

    @Prompt({ description: 'Summarise the notes', scopes: ['notes:write'] })
    summarise() {
      return 'Summarise my notes';
    }
  }
  void Notes;
}

let op: OidcProvider;
let server: HttpListener;
let resource: string;
const OTHER = 'http://127.0.0.1:1/other-mcp';
const reports: string[] = [];
/** What a global interceptor saw as the principal of each call. */
const intercepted: unknown[] = [];
const recorder: Interceptor = {
  intercept(call, next) {
    intercepted.push(call.principal);
    return next();
  },
};

async function start(options: ServeHttpOptions): Promise<HttpListener> {
  declareNotes();
  return serveHttp(createServer({ name: 'notes', version: '1', interceptors: [recorder] }), {
    port: 0,
    keepAliveMs: 0,
    onError: (e, where) => reports.push(`${where}: ${String(e)} ${String((e as Error).cause)}`),
    ...options,
  });
}

beforeAll(async () => {
  op = await startOidcProvider();
  server = await start({ auth: { jwt: { jwksUri: op.jwksUri, issuer: op.issuer, jwksCooldownMs: COOLDOWN_MS, clockToleranceSec: 0 } } });
  resource = server.url;
  await op.addResource(resource, { scope: 'notes:read notes:write notes:archive' });
  await op.addResource(OTHER, { scope: 'notes:read notes:write' });
}, 30_000);
afterAll(async () => {
  await server?.close(0);
  await op?.close();
  getMetadataStorage().reset();
});

const token = (scope = 'notes:read', ttlSec?: number) => op.clientCredentialsToken({ resource, scope, ttlSec });
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const metadataUrl = () => `${resource.replace(/\/mcp$/, '')}/.well-known/oauth-protected-resource`;

/** One initialize with `t`: status, challenge and body. */
async function attempt(t: string | undefined, url = resource) {
  const res = await post(url, INIT, t === undefined ? {} : bearer(t));
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.text() };
}

/** A session opened with `t`, and a request on it. */
async function session(t: string) {
  const { sessionId } = await initialize(resource, '2025-11-25', bearer(t));
  const request = async (id: number, method: string, params: Record<string, unknown>, with_ = t) => {
    const res = await post(resource, { jsonrpc: '2.0', id, method, params }, { ...bearer(with_), 'mcp-session-id': sessionId });
    const text = await res.text();
    return {
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
      body: text,
      message: res.status === 200 ? messagesOf(parseSse(text))[0] : JSON.parse(text),
    };
  };
  return { sessionId, request };
}

describe('JWT access tokens from oidc-provider', () => {
  it('accepts a good token and gives handlers, guards and interceptors a verified principal without the token (RFC 9068 claims)', async () => {
    const t = await token('notes:read');
    const s = await session(t);
    intercepted.length = 0;
    const who = await s.request(2, 'tools/call', { name: 'whoami' });
    expect(validateAgainst('2025-11-25', 'JSONRPCResponse', who.message)).toEqual([]);
    const principal = JSON.parse((who.message.result as { content: { text: string }[] }).content[0].text);
    expect(principal).toMatchObject({ issuer: op.issuer, subject: 'service', clientId: 'service', scopes: ['notes:read'], claims: { aud: resource } });
    expect(principal.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(who.body).not.toContain(t);
    expect(intercepted).toEqual([expect.objectContaining({ subject: 'service', scopes: ['notes:read'] })]);
    expect(JSON.stringify(intercepted)).not.toContain(t);
  });

  it('answers no token with 401 and WWW-Authenticate naming the metadata (RFC 6750 3.1, RFC 9728 5.1)', async () => {
    const r = await attempt(undefined);
    expect(r.status).toBe(401);
    expect(r.challenge).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(JSON.parse(r.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_MISSING_TOKEN' } } });
  });

  const invalid = (r: { status: number; challenge: string | null; body: string }, t: string, description: RegExp) => {
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(
      new RegExp(`^Bearer error="invalid_token", resource_metadata="${metadataUrl().replace(/[.?]/g, '\\$&')}", error_description="`),
    );
    expect(r.challenge).toMatch(description);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: -32000, data: { code: 'TYPEMCP_HTTP_INVALID_TOKEN' } } });
    // Refused before the body is read: `id: null` (JSON-RPC 2.0 section 5), which MCP's schema does not model.
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(`${r.challenge} ${r.body}`).not.toContain(t);
    expect(`${r.challenge} ${r.body}`).not.toContain(t.split('.')[1]);
  };

  it('refuses an expired token (exp, no clock tolerance configured)', async () => {
    const t = await token('notes:read', 3);
    const { exp } = JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()) as { exp: number };
    expect(exp * 1000 - Date.now()).toBeLessThan(3500);
    expect((await attempt(t)).status).toBe(200);
    await sleep(Math.max(0, exp * 1000 - Date.now()) + 50);
    invalid(await attempt(t), t, /expired/);
  });

  it('refuses a token issued for another resource (audience, RFC 8707)', async () => {
    const t = await op.clientCredentialsToken({ resource: OTHER, scope: 'notes:read' });
    invalid(await attempt(t), t, /aud claim/);
  });

  it('refuses a token from another issuer, even signed with a key the server trusts', async () => {
    const now = Math.floor(Date.now() / 1000);
    const t = await op.sign({ iss: 'http://127.0.0.1:1/evil', aud: resource, sub: 'mallory', scope: 'notes:read notes:write', iat: now, exp: now + 60 });
    invalid(await attempt(t), t, /iss claim/);
  });

  it('refuses alg "none" and an HS256 token made with the public key as the secret (algorithm confusion)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: op.issuer, aud: resource, sub: 'mallory', scope: 'notes:read notes:write', iat: now, exp: now + 60 };
    const none = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims)}.`;
    invalid(await attempt(none), none, /not a valid JWS|algorithm/);
    const jwk = op.publicJwk();
    const pem = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    for (const secret of [pem, JSON.stringify(jwk)]) {
      const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: jwk.kid })}.${b64(claims)}`;
      const hmac = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      invalid(await attempt(hmac), hmac, /algorithm this server does not accept/);
    }
  });

  it('refuses a token whose signature does not match its payload', async () => {
    const t = await token('notes:read');
    const [h, , s] = t.split('.');
    const now = Math.floor(Date.now() / 1000);
    const forged = `${h}.${b64({ iss: op.issuer, aud: resource, sub: 'mallory', scope: 'notes:write', exp: now + 60 })}.${s}`;
    invalid(await attempt(forged), forged, /signature/);
  });

  it('fetches the JWKS again for the kid of a rotated key, and no more than once per cool-down for unknown kids', async () => {
    expect((await attempt(await token())).status).toBe(200);
    await sleep(COOLDOWN_MS + 50);
    const before = (await op.counters()).jwks;
    const kid = await op.rotateKeys();
    const rotated = await token();
    expect(JSON.parse(Buffer.from(rotated.split('.')[0], 'base64url').toString())).toMatchObject({ kid });
    expect((await attempt(rotated)).status).toBe(200);
    const afterRotation = (await op.counters()).jwks;
    expect(afterRotation).toBe(before + 1);
    // A burst of tokens naming keys nobody publishes (inside the cool-down): refused, at most one more fetch.
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 5; i++) {
      const t = await op.sign({ iss: op.issuer, aud: resource, sub: 'x', exp: now + 60 }, { kid: randomBytes(6).toString('hex') });
      invalid(await attempt(t), t, /key the issuer does not publish/);
    }
    expect((await op.counters()).jwks - afterRotation).toBeLessThanOrEqual(1);
  });

  it('answers 503 with Retry-After when the JWKS cannot be fetched, and reports it without the token', async () => {
    const down = await start({ auth: { jwt: { jwksUri: 'http://127.0.0.1:1/jwks', issuer: op.issuer, audience: resource, jwksTimeoutMs: 1000 } } });
    try {
      const t = await token();
      reports.length = 0;
      const res = await post(down.url, INIT, bearer(t));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_AUTH_UNAVAILABLE' } } });
      expect(reports.join('\n')).toContain('bearer token verification');
      expect(`${reports.join('\n')} ${body}`).not.toContain(t);
    } finally {
      await down.close(0);
    }
  });

  it('verifies with a static public key (a JWK), and refuses impossible options before anything listens', async () => {
    const fixed = await start({ auth: { jwt: { key: op.publicJwk() as import('node:crypto').JsonWebKey, issuer: op.issuer, audience: resource } } });
    try {
      expect((await attempt(await token(), fixed.url)).status).toBe(200);
      const foreign = await op.clientCredentialsToken({ resource: OTHER, scope: 'notes:read' });
      expect((await attempt(foreign, fixed.url)).status).toBe(401);
    } finally {
      await fixed.close(0);
    }
    const { privateKey, publicKey } = await import('node:crypto').then((c) => c.generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    const refused = async (auth: unknown, option: string) =>
      expect(start({ auth: auth as never })).rejects.toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option });
    await refused({}, 'auth');
    await refused({ jwt: { jwksUri: op.jwksUri, issuer: op.issuer }, verify: () => ({}) }, 'auth');
    await refused({ jwt: { jwksUri: op.jwksUri, key: publicKey, issuer: op.issuer } }, 'auth.jwt');
    await refused({ jwt: { jwksUri: op.jwksUri } }, 'auth.jwt.issuer');
    await refused({ jwt: { jwksUri: op.jwksUri, issuer: op.issuer, algorithms: ['RS256', 'HS256'] } }, 'auth.jwt.algorithms');
    await refused({ jwt: { jwksUri: op.jwksUri, issuer: op.issuer, algorithms: ['none'] } }, 'auth.jwt.algorithms');
    await refused({ jwt: { key: privateKey, issuer: op.issuer } }, 'auth.jwt.key');
    await refused({ jwt: { jwksUri: 'file:///etc/passwd', issuer: op.issuer } }, 'auth.jwt.jwksUri');
    await refused({ introspection: { endpoint: op.introspectionEndpoint, clientId: 'x' } }, 'auth.introspection.clientSecret');
  });

  it('serves Protected Resource Metadata with the resource, the issuer and every declared scope (RFC 9728 2, 3)', async () => {
    const res = await fetch(metadataUrl());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource,
      authorization_servers: [op.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['notes:archive', 'notes:read', 'notes:write'],
    });
  });
});

describe('scopes and step-up', () => {
  const insufficient = (r: { status: number; challenge: string | null; message: Record<string, unknown> }, scopes: string, id: number) => {
    expect(r.status).toBe(403);
    expect(r.challenge).toBe(
      `Bearer error="insufficient_scope", scope="${scopes}", resource_metadata="${metadataUrl()}", error_description="the access token lacks a scope this request needs"`,
    );
    expect(r.message).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32003, data: { code: 'TYPEMCP_HTTP_INSUFFICIENT_SCOPE' } } });
    expect(validateAgainst('2025-11-25', 'JSONRPCErrorResponse', r.message)).toEqual([]);
    expect(validateAgainst(MODERN, 'JSONRPCErrorResponse', r.message)).toEqual([]);
  };

  it('hides what the token cannot reach from the lists, and answers a call with 403 insufficient_scope (legacy session)', async () => {
    const s = await session(await token('notes:read'));
    const tools = await s.request(2, 'tools/list', {});
    expect(validateAgainst('2025-11-25', 'JSONRPCResponse', tools.message)).toEqual([]);
    expect((tools.message.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['notes_list', 'whoami']);
    expect((await s.request(3, 'prompts/list', {})).message.result).toEqual({ prompts: [] });
    expect((await s.request(4, 'resources/list', {})).message.result).toEqual({ resources: [] });
    insufficient(await s.request(5, 'tools/call', { name: 'notes_add' }), 'notes:read notes:write', 5);
    insufficient(await s.request(6, 'prompts/get', { name: 'summarise' }), 'notes:read notes:write', 6);
    insufficient(await s.request(7, 'resources/read', { uri: 'notes://archive' }), 'notes:read notes:archive', 7);
    // The session keeps serving what the token reaches.
    expect((await s.request(8, 'tools/call', { name: 'notes_list' })).message.result).toEqual({ content: [{ type: 'text', text: 'no notes yet' }] });
  });

  it('continues the session with a wider token of the same subject (step-up), and a token of another subject gets 404', async () => {
    const s = await session(await token('notes:read'));
    insufficient(await s.request(2, 'tools/call', { name: 'notes_add' }), 'notes:read notes:write', 2);
    const wider = await token('notes:read notes:write');
    const done = await s.request(3, 'tools/call', { name: 'notes_add' }, wider);
    expect(done.message).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'added' }] } });
    const listed = await s.request(4, 'tools/list', {}, wider);
    expect((listed.message.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['notes_list', 'notes_add', 'whoami']);
    const now = Math.floor(Date.now() / 1000);
    const stranger = await op.sign({ iss: op.issuer, aud: resource, sub: 'mallory', scope: 'notes:read notes:write', exp: now + 60 });
    const foreign = await s.request(5, 'tools/list', {}, stranger);
    expect(foreign.status).toBe(404);
  });

  it('answers a 2026-07-28 request the same way, before anything streams', async () => {
    const meta = { [MetaKey.protocolVersion]: MODERN, [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: { name: 't', version: '1' } };
    const modern = async (t: string, id: number, method: string, params: Record<string, unknown>, name?: string) => {
      const res = await post(
        resource,
        { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
        {
          ...bearer(t),
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
        },
      );
      const text = await res.text();
      return {
        status: res.status,
        challenge: res.headers.get('www-authenticate'),
        message: JSON.parse(text.startsWith('{') ? text : messagesOf(parseSse(text)).at(-1) ? JSON.stringify(messagesOf(parseSse(text)).at(-1)) : text),
      };
    };
    const narrow = await token('notes:read');
    const list = await modern(narrow, 1, 'tools/list', {});
    expect(validateAgainst(MODERN, 'JSONRPCResponse', list.message)).toEqual([]);
    expect((list.message.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['notes_list', 'whoami']);
    insufficient(await modern(narrow, 2, 'tools/call', { name: 'notes_add' }, 'notes_add'), 'notes:read notes:write', 2);
    const wide = await modern(await token('notes:read notes:write'), 3, 'tools/call', { name: 'notes_add' }, 'notes_add');
    expect(wide.status).toBe(200);
    expect(wide.message.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'added' }] });
  });

  it('answers a legacy HTTP+SSE (2024-11-05) /messages POST with 403 too', async () => {
    const t = await token('notes:read');
    const base = resource.replace(/\/mcp$/, '');
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream', ...bearer(t) } });
    const reader = new SseReader(stream);
    const endpoint = `${base}${(await reader.next())!.data!}`;
    const send = (body: unknown) => fetch(endpoint, { method: 'POST', headers: { ...JSON_AND_SSE, ...bearer(t) }, body: JSON.stringify(body) });
    expect((await send({ ...INIT, params: { ...INIT.params, protocolVersion: '2024-11-05' } })).status).toBe(202);
    await reader.next();
    const refused = await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_add' } });
    insufficient(
      { status: refused.status, challenge: refused.headers.get('www-authenticate'), message: (await refused.json()) as Record<string, unknown> },
      'notes:read notes:write',
      2,
    );
    await reader.cancel();
  });

  it('lists everything with hideUnauthorized: false, and still refuses the call', async () => {
    const open = await start({ auth: { jwt: { jwksUri: op.jwksUri, issuer: op.issuer, audience: resource }, hideUnauthorized: false } });
    try {
      const t = await token('notes:read');
      const { sessionId } = await initialize(open.url, '2025-11-25', bearer(t));
      const res = await post(open.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { ...bearer(t), 'mcp-session-id': sessionId });
      const list = messagesOf(parseSse(await res.text()))[0];
      expect((list.result as { tools: { name: string }[] }).tools.map((x) => x.name)).toEqual(['notes_list', 'notes_add', 'whoami']);
      const call = await post(
        open.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes_add' } },
        { ...bearer(t), 'mcp-session-id': sessionId },
      );
      expect(call.status).toBe(403);
    } finally {
      await open.close(0);
    }
  });

  it('answers a batch member without the scope with -32003 inside the batch (2025-03-26)', async () => {
    const t = await token('notes:read');
    const { sessionId } = await initialize(resource, '2025-03-26', bearer(t));
    const res = await post(
      resource,
      [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_add' } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes_list' } },
      ],
      { ...bearer(t), 'mcp-session-id': sessionId },
    );
    expect(res.status).toBe(200);
    const answers = messagesOf(parseSse(await res.text())).flatMap((m) => (Array.isArray(m) ? m : [m]));
    const refused = answers.find((a) => a.id === 2)!;
    expect(refused.error).toEqual({
      code: -32003,
      message: 'Insufficient scope: this request needs the scope notes:write',
      data: { code: 'TYPEMCP_INSUFFICIENT_SCOPE', requiredScopes: ['notes:read', 'notes:write'], missingScopes: ['notes:write'] },
    });
    expect(answers.find((a) => a.id === 3)!.result).toBeDefined();
  });
});

describe('opaque tokens by introspection (RFC 7662)', () => {
  let introspected: HttpListener;
  let target: string;
  beforeAll(async () => {
    introspected = await start({
      auth: {
        introspection: {
          endpoint: op.introspectionEndpoint,
          clientId: op.introspector.clientId,
          clientSecret: op.introspector.clientSecret,
          issuer: op.issuer,
        },
      },
      log: true,
    });
    target = introspected.url;
    await op.addResource(target, { scope: 'notes:read notes:write', format: 'opaque' });
  });
  afterAll(() => introspected.close(0));

  it('accepts an active token, caches the answer briefly, and refuses a revoked or foreign one; no token in the log', async () => {
    const lines: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    try {
      const t = await op.clientCredentialsToken({ resource: target, scope: 'notes:read' });
      expect(t.split('.')).toHaveLength(1);
      const before = (await op.counters()).introspection;
      expect((await attempt(t, target)).status).toBe(200);
      expect((await attempt(t, target)).status).toBe(200);
      expect((await op.counters()).introspection).toBe(before + 1);

      const revoked = await op.clientCredentialsToken({ resource: target, scope: 'notes:read' });
      const revoke = await fetch(`${op.issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${op.serviceClient.clientId}:${op.serviceClient.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token: revoked }).toString(),
      });
      expect(revoke.status).toBe(200);
      const r = await attempt(revoked, target);
      expect(r.status).toBe(401);
      expect(r.challenge).toMatch(/error="invalid_token".*not active/);

      // An opaque token for another resource: active, but its audience is not this server.
      await op.addResource(`${target}-elsewhere`, { scope: 'notes:read', format: 'opaque' });
      const foreign = await op.clientCredentialsToken({ resource: `${target}-elsewhere`, scope: 'notes:read' });
      expect((await attempt(foreign, target)).challenge).toMatch(/aud claim/);
      await sleep(20);
      const logged = lines.join('');
      expect(logged).toContain('"principal":"service"');
      for (const secret of [t, revoked, foreign, op.introspector.clientSecret]) expect(logged).not.toContain(secret);
    } finally {
      write.mockRestore();
    }
  });
});

describe('a refreshed token is the same caller (2026-07-28 rounds and tasks bind issuer + subject)', () => {
  const TASKS = 'io.modelcontextprotocol/tasks';
  const FORM = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
  let refreshing: HttpListener;
  let url: string;

  beforeAll(async () => {
    getMetadataStorage().reset();
    @McpService()
    class Drafts {
      @Tool({ description: 'Asks for a title, then drafts' })
      async draft(ctx: Context) {
        const answer = await ctx.elicit('Title?', FORM);
        return answer.action === 'accept' ? `drafted ${String(answer.content.title)}` : 'no draft';
      }

      @Tool({ description: 'Publishes (a task when the client can take one)', task: 'optional' })
      publish() {
        return 'published';
      }
    }
    void Drafts;
    refreshing = await serveHttp(createServer({ name: 'drafts', version: '1' }), {
      port: 0,
      keepAliveMs: 0,
      auth: { jwt: { jwksUri: op.jwksUri, issuer: op.issuer } },
    });
    url = refreshing.url;
    await op.addResource(url, { scope: 'notes:read notes:write' });
  });
  afterAll(() => refreshing?.close(0));

  /** Two tokens of the provider for one client, hence one issuer and one subject, with different jti, exp and scopes. */
  const tokens = async () => {
    const first = await op.clientCredentialsToken({ resource: url, scope: 'notes:read', ttlSec: 300 });
    const refreshed = await op.clientCredentialsToken({ resource: url, scope: 'notes:read notes:write', ttlSec: 600 });
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    const [a, b] = [claims(first), claims(refreshed)];
    expect(b.iss).toBe(a.iss);
    expect(typeof a.sub).toBe('string');
    expect(b.sub).toBe(a.sub);
    expect(b.jti).not.toBe(a.jti);
    expect(b.exp).not.toBe(a.exp);
    expect(b.scope).not.toBe(a.scope);
    return { first, refreshed, subject: a.sub as string };
  };
  /** A token of the same issuer, signed with its key, for another subject. */
  const stranger = async () =>
    op.sign({
      iss: op.issuer,
      aud: url,
      sub: 'mallory',
      client_id: op.serviceClient.clientId,
      scope: 'notes:read notes:write',
      exp: Math.floor(Date.now() / 1000) + 60,
    });

  let nextId = 1;
  async function call(t: string, method: string, params: Record<string, unknown>, name?: string) {
    const id = nextId++;
    const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    const meta = { [MetaKey.protocolVersion]: MODERN, [MetaKey.clientCapabilities]: capabilities, [MetaKey.clientInfo]: { name: 't', version: '1' } };
    const res = await post(
      url,
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
      { ...bearer(t), 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    );
    const text = await res.text();
    const message = (text.startsWith('{') ? JSON.parse(text) : messagesOf(parseSse(text)).find((m) => m.id === id)) as Record<string, unknown>;
    expect(message.id).toBe(id);
    return { status: res.status, message };
  }

  it('takes the second round of a multi round-trip request with a refreshed token; another subject gets -32602', async () => {
    const { first, refreshed } = await tokens();
    const asked = await call(first, 'tools/call', { name: 'draft' }, 'draft');
    expect(asked.status).toBe(200);
    expect(validateAgainst(MODERN, 'JSONRPCResponse', asked.message)).toEqual([]);
    const round = asked.message.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicitation-0': { method: 'elicitation/create' } } });
    const retry = { name: 'draft', requestState: round.requestState, inputResponses: { 'elicitation-0': { action: 'accept', content: { title: 'Q3' } } } };

    const foreign = await call(await stranger(), 'tools/call', retry, 'draft');
    expect(foreign.message.error).toMatchObject({ code: -32602, message: 'Invalid params: requestState is not valid for this request' });
    expect(validateAgainst(MODERN, 'JSONRPCErrorResponse', foreign.message)).toEqual([]);

    const done = await call(refreshed, 'tools/call', retry, 'draft');
    expect(done.status).toBe(200);
    expect(validateAgainst(MODERN, 'JSONRPCResponse', done.message)).toEqual([]);
    expect(done.message.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'drafted Q3' }] });
  });

  it('shows a task created with one token to a refreshed token of the same subject, and to no other subject', async () => {
    const { first, refreshed } = await tokens();
    const created = await call(first, 'tools/call', { name: 'publish' }, 'publish');
    const handle = created.message.result as Record<string, unknown>;
    expect(validateTasksExtension('CreateTaskResult', handle)).toEqual([]);
    expect(handle).toMatchObject({ resultType: 'task', taskId: expect.any(String) });
    const taskId = handle.taskId as string;

    const foreign = await call(await stranger(), 'tasks/get', { taskId }, taskId);
    expect(foreign.message.error).toMatchObject({ code: -32602 });
    expect(validateAgainst(MODERN, 'JSONRPCErrorResponse', foreign.message)).toEqual([]);

    let task: Record<string, unknown> = {};
    for (let i = 0; i < 50 && task.status !== 'completed'; i++) {
      const got = await call(refreshed, 'tasks/get', { taskId }, taskId);
      expect(got.message.error).toBeUndefined();
      task = got.message.result as Record<string, unknown>;
      expect(validateTasksExtension('GetTaskResult', task)).toEqual([]);
      if (task.status !== 'completed') await sleep(50);
    }
    expect(task).toMatchObject({ taskId, status: 'completed' });
    expect(JSON.stringify(task)).toContain('published');
    // The stranger still cannot see it once it is done.
    expect((await call(await stranger(), 'tasks/get', { taskId }, taskId)).message.error).toMatchObject({ code: -32602 });
  });
});
