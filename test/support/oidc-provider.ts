/**
 * A real authorization server for tests: oidc-provider 9 (the certified OpenID Connect provider
 * library) in a child Node process on 127.0.0.1 with a random port (see oidc-provider.server.mjs).
 * It issues RS256 JWT (or opaque) access tokens for registered resource indicators (RFC 8707)
 * with their audience and scopes, supports client credentials, dynamic client registration
 * (toggle), introspection (RFC 7662), PKCE-required authorization code with a scripted login and
 * consent the test drives over HTTP ({@link OidcProvider.authorize}), and key rotation. The
 * signing keys are made here, so a test can also sign tokens of its own with the provider's key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

/** What a resource indicator gets: its scopes, token format and lifetime. */
export interface ResourceInfo {
  /** Space-separated scopes the provider may grant for it. */
  scope: string;
  /** `jwt` (default, RS256) or `opaque` (for introspection). */
  format?: 'jwt' | 'opaque';
  /** Access-token lifetime in seconds (default 600). */
  ttlSec?: number;
}

export interface OidcProviderOptions {
  /** Resource indicators (RFC 8707) the provider issues tokens for; more with addResource(). */
  resources?: Record<string, ResourceInfo>;
  /** Dynamic client registration (RFC 7591) at /reg (default true). */
  registration?: boolean;
  /** Users of the login form: name -> password (default alice / wonderland). */
  users?: Record<string, string>;
  /** More statically registered clients (oidc-provider client metadata). */
  clients?: Record<string, unknown>[];
}

/** A confidential client registered at start-up. */
export interface TestClient {
  clientId: string;
  clientSecret: string;
}

export interface OidcProvider {
  /** `http://127.0.0.1:<port>` */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  readonly introspectionEndpoint: string;
  /** A client allowed the client-credentials grant. */
  readonly serviceClient: TestClient;
  /** A client allowed to introspect every token (a resource server). */
  readonly introspector: TestClient;
  /** Registers (or replaces) a resource indicator. */
  addResource(indicator: string, info: ResourceInfo): Promise<void>;
  /** A client-credentials access token of `serviceClient` for `resource` (`ttlSec`: this token's lifetime). */
  clientCredentialsToken(request: { resource: string; scope?: string; ttlSec?: number }): Promise<string>;
  /** Makes a new signing key the current one (the old one stays published); returns the new `kid`. */
  rotateKeys(): Promise<string>;
  /** Signs `payload` with the current private key (RS256 unless `alg` says otherwise). */
  sign(payload: JWTPayload, header?: { kid?: string; alg?: string; typ?: string }): Promise<string>;
  /** The current public signing key. */
  publicJwk(): JWK;
  /** How often the JWKS and the introspection endpoint were requested so far. */
  counters(): Promise<{ jwks: number; introspection: number }>;
  /**
   * Plays the browser for an authorization URL: follows redirects with fetch (keeping cookies),
   * submits the login form as `user` and the consent form (allowing `consent`: the scopes the user
   * grants, default all asked for), and returns the final redirect to the client (with `code` and
   * `state`) without following it.
   */
  authorize(url: string | URL, user?: { login: string; password: string; consent?: readonly string[] }): Promise<URL>;
  close(): Promise<void>;
}

const SERVER = path.join(__dirname, 'oidc-provider.server.mjs');

async function newKey(): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

const publicPart = ({ kty, n, e, kid, alg, use }: JWK): JWK => ({ kty, n, e, kid, alg, use });

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProvider> {
  const keys = [await newKey()];
  const adminSecret = randomBytes(24).toString('base64url');
  const serviceClient = { clientId: 'service', clientSecret: randomBytes(24).toString('base64url') };
  const introspector = { clientId: 'resource-server', clientSecret: randomBytes(24).toString('base64url') };
  const resources = options.resources ?? {};
  const config = {
    jwks: keys,
    adminSecret,
    cookieKey: randomBytes(24).toString('base64url'),
    registration: options.registration ?? true,
    users: options.users ?? { alice: 'wonderland' },
    resources,
    defaultResource: Object.keys(resources)[0],
    introspectors: [introspector.clientId],
    clients: [
      {
        client_id: serviceClient.clientId,
        client_secret: serviceClient.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: introspector.clientId,
        client_secret: introspector.clientSecret,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
      ...(options.clients ?? []),
    ],
  };
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: { ...process.env, OIDC_TEST_CONFIG: JSON.stringify(config), NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-8_000)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc-provider did not start:\n${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}):\n${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const issuer = `http://127.0.0.1:${port}`;

  const admin = async (route: string, body?: unknown) => {
    const response = await fetch(`${issuer}/__admin/${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${adminSecret}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`admin ${route}: ${response.status}`);
    return (await response.json()) as { jwks: number; introspection: number };
  };

  const basic = (client: TestClient) => `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    serviceClient,
    introspector,

    async addResource(indicator, info) {
      await admin('resource', { indicator, info });
    },

    async clientCredentialsToken({ resource, scope, ttlSec }) {
      if (ttlSec !== undefined) await admin('ttl', { ttlSec });
      try {
        const response = await fetch(`${issuer}/token`, {
          method: 'POST',
          headers: { authorization: basic(serviceClient), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope ? { scope } : {}) }).toString(),
        });
        const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
        if (!response.ok || !body.access_token) throw new Error(`token request failed: ${response.status} ${body.error} ${body.error_description}`);
        return body.access_token;
      } finally {
        if (ttlSec !== undefined) await admin('ttl', {});
      }
    },

    async rotateKeys() {
      keys.unshift(await newKey());
      await admin('rotate', { keys });
      return keys[0].kid;
    },

    async sign(payload, header = {}) {
      const key = await importJWK(keys[0], 'RS256');
      return new SignJWT(payload).setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? keys[0].kid, typ: header.typ }).sign(key);
    },

    publicJwk: () => publicPart(keys[0]),

    counters: () => admin('stats'),

    async authorize(url, user = { login: 'alice', password: 'wonderland' }) {
      const cookies = new Map<string, string>();
      const remember = (response: Response) => {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair.indexOf('=');
          cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
        }
      };
      const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      let next = new URL(url);
      let init: RequestInit = {};
      for (let hop = 0; hop < 20; hop++) {
        if (next.origin !== issuer) return next;
        const response = await fetch(next, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
        remember(response);
        init = {};
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          next = new URL(location, next);
          continue;
        }
        const html = await response.text();
        if (response.status !== 200) throw new Error(`authorization failed at ${next.pathname}: ${response.status} ${html.slice(0, 500)}`);
        const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no form at ${next.pathname}: ${html.slice(0, 500)}`);
        next = new URL(action, next);
        const form = action.endsWith('/login')
          ? new URLSearchParams({ login: user.login, password: user.password })
          : new URLSearchParams(user.consent ? { grant: user.consent.join(' ') } : {});
        init = { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      }
      throw new Error('authorization: too many redirects');
    },

    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
