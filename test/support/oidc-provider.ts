/**
 * A real authorization server for tests: oidc-provider 9 (the certified OpenID Connect provider
 * library) in a child Node process on 127.0.0.1 with a random port (see oidc-provider.server.mjs).
 *
 * - `registration`: dynamic client registration (RFC 7591) on, or off like GitHub or Google.
 * - `clients`: pre-registered clients (e.g. the OAuth proxy's confidential client); besides them
 *   {@link OidcProvider.serviceClient} (client credentials) and {@link OidcProvider.introspector}.
 * - `resources`: resource indicators (RFC 8707) it issues RS256 JWT (or opaque) access tokens for,
 *   with their scopes, audience and lifetime; more with {@link OidcProvider.addResource}.
 * - PKCE-required authorization code with a login (checked against `users`) and consent the test
 *   drives over HTTP as a person would, with a cookie-keeping {@link Browser}
 *   ({@link OidcProvider.authorize} does the provider's part).
 * - Client credentials tokens, introspection (RFC 7662), revocation, key rotation; the signing keys
 *   are made here, so a test can also sign tokens of its own with the provider's key.
 * - `seen`: every request the provider received (method, path, headers, body); `counters()`: how
 *   often the JWKS and introspection endpoints were asked.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

/** What a resource indicator gets: its scopes, audience, token format and lifetime. */
export interface ResourceInfo {
  /** Space-separated scopes the provider may grant for it. */
  scope: string;
  /** The `aud` of its tokens (default: the indicator). */
  audience?: string;
  /** `jwt` (default, RS256) or `opaque` (for introspection). */
  format?: 'jwt' | 'opaque';
  /** Access-token lifetime in seconds (default 600). */
  ttlSec?: number;
}

/** oidc-provider client metadata of a statically registered client. */
export interface OidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris?: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
  scope?: string;
  [key: string]: unknown;
}

export interface OidcProviderOptions {
  /** Dynamic client registration (RFC 7591) at /reg (default false). */
  registration?: boolean;
  /** More statically registered clients. */
  clients?: OidcClient[];
  /** Scopes beyond openid, offline_access and the resources' scopes (`email` adds the email claim). */
  scopes?: string[];
  /** Resource indicators (RFC 8707) the provider issues tokens for; more with addResource(). */
  resources?: Record<string, ResourceInfo>;
  /** The resource a request naming none gets (default: the first of `resources`; none: an opaque token for userinfo). */
  defaultResource?: string;
  /** Users of the login form: name -> password (default alice / wonderland). */
  users?: Record<string, string>;
}

/** A confidential client registered at start-up. */
export interface TestClient {
  clientId: string;
  clientSecret: string;
}

/** A request the provider received. */
export interface SeenRequest {
  method: string;
  /** The path with its query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The person at the provider's login and consent pages. */
export interface ProviderUser {
  login: string;
  /** Default: the password `users` gives `login`. */
  password?: string;
  /** The scopes the user allows on the consent page (default: all asked for). */
  consent?: readonly string[];
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
  /** Every request the provider received so far; each is reported before the provider handles it. */
  readonly seen: readonly SeenRequest[];
  /** Registers (or replaces) a resource indicator. */
  addResource(indicator: string, info: ResourceInfo): Promise<void>;
  /** A client-credentials access token for `resource` (`client`: default serviceClient; `ttlSec`: this token's lifetime). */
  clientCredentialsToken(request: { resource: string; scope?: string; ttlSec?: number; client?: TestClient }): Promise<string>;
  /**
   * Makes a new signing key the current one and returns its `kid`. The old keys stay published,
   * unless `retire` (then tokens they signed carry a kid the JWKS no longer has).
   */
  rotateKeys(options?: { retire?: boolean }): Promise<string>;
  /** Signs `payload` with the current private key (RS256 unless `alg` says otherwise). */
  sign(payload: JWTPayload, header?: { kid?: string; alg?: string; typ?: string }): Promise<string>;
  /** The current public signing key. */
  publicJwk(): JWK;
  /** How often the JWKS and the introspection endpoint were requested so far. */
  counters(): Promise<{ jwks: number; introspection: number }>;
  /**
   * The person's part at the provider, in `browser` (default: a new one): from `url` (an
   * authorization URL or any page of the provider) follows redirects, signs in as `user` (default
   * alice) and consents, and returns the first URL outside the provider (the client's redirect
   * URI with `code` and `state`) without visiting it.
   */
  authorize(url: string | URL, user?: ProviderUser, browser?: Browser): Promise<URL>;
  close(): Promise<void>;
}

const SERVER = path.join(__dirname, 'oidc-provider.server.mjs');

async function newKey(): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

const publicPart = ({ kty, n, e, kid, alg, use }: JWK): JWK => ({ kty, n, e, kid, alg, use });
const basic = (client: TestClient) =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;

type Counters = { jwks: number; introspection: number };
type FromChild = { type: 'ready'; issuer: string } | ({ type: 'seen' } & SeenRequest) | { id: number; result?: Counters; error?: string };

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProvider> {
  let keys = [await newKey()];
  const serviceClient = { clientId: 'service', clientSecret: randomBytes(24).toString('base64url') };
  const introspector = { clientId: 'resource-server', clientSecret: randomBytes(24).toString('base64url') };
  const users = options.users ?? { alice: 'wonderland' };
  const resources = options.resources ?? {};
  const config = {
    jwks: keys,
    cookieKey: randomBytes(24).toString('base64url'),
    registration: options.registration ?? false,
    users,
    scopes: options.scopes ?? [],
    resources,
    defaultResource: options.defaultResource ?? Object.keys(resources)[0],
    introspectors: [introspector.clientId],
    clients: [
      {
        client_id: serviceClient.clientId,
        client_secret: serviceClient.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      { client_id: introspector.clientId, client_secret: introspector.clientSecret, grant_types: [], redirect_uris: [], response_types: [] },
      ...(options.clients ?? []),
    ],
  };
  const child = fork(SERVER, [], {
    env: { ...process.env, OIDC_TEST_CONFIG: JSON.stringify(config), NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    execArgv: [],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-8_000)));
  const seen: SeenRequest[] = [];
  const pending = new Map<number, { resolve: (c: Counters) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc-provider did not start:\n${stderr}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`oidc-provider exited (${code}):\n${stderr}`));
      for (const waiter of pending.values()) waiter.reject(new Error(`oidc-provider exited (${code}):\n${stderr}`));
    });
    child.on('message', (msg: FromChild) => {
      if ('id' in msg) {
        const waiter = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error !== undefined) waiter?.reject(new Error(msg.error));
        else waiter?.resolve(msg.result!);
      } else if (msg.type === 'seen') {
        seen.push({ method: msg.method, path: msg.path, headers: msg.headers, body: msg.body });
      } else {
        clearTimeout(timer);
        resolve(msg.issuer);
      }
    });
  });
  // Neither the process nor its channel keeps the test runner alive; close() ends it.
  child.unref();
  (child.channel as { unref?(): void } | undefined)?.unref?.();

  /** One request to the child; its answer also means every earlier `seen` report has arrived (IPC keeps order). */
  const ask = (request: Record<string, unknown>) =>
    new Promise<Counters>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...request, id });
    });

  const op: OidcProvider = {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    serviceClient,
    introspector,
    seen,

    async addResource(indicator, info) {
      await ask({ type: 'resource', indicator, info });
    },

    async clientCredentialsToken({ resource, scope, ttlSec, client = serviceClient }) {
      if (ttlSec !== undefined) await ask({ type: 'ttl', ttlSec });
      try {
        const response = await fetch(`${issuer}/token`, {
          method: 'POST',
          headers: { authorization: basic(client), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope ? { scope } : {}) }).toString(),
        });
        const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
        if (!response.ok || !body.access_token) throw new Error(`token request failed: ${response.status} ${body.error} ${body.error_description}`);
        return body.access_token;
      } finally {
        if (ttlSec !== undefined) await ask({ type: 'ttl' });
      }
    },

    async rotateKeys({ retire = false } = {}) {
      keys = [await newKey(), ...(retire ? [] : keys)];
      await ask({ type: 'keys', keys });
      return keys[0].kid;
    },

    async sign(payload, header = {}) {
      const key = await importJWK(keys[0], 'RS256');
      return new SignJWT(payload).setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? keys[0].kid, typ: header.typ }).sign(key);
    },

    publicJwk: () => publicPart(keys[0]),

    counters: () => ask({ type: 'counters' }),

    async authorize(url, user = { login: 'alice' }, browser = new Browser()) {
      const outside = (u: URL) => u.origin !== issuer;
      let at = await browser.follow(String(url), outside);
      for (let step = 0; step < 4 && at.page; step++) {
        const html = await at.page.text();
        if (at.page.status !== 200) throw new Error(`authorization failed at ${at.url}: ${at.page.status} ${html.slice(0, 500)}`);
        const { action, fields } = formOf(html, at.url);
        const form = new URL(action).pathname.endsWith('/login')
          ? { ...fields, login: user.login, password: user.password ?? users[user.login] ?? '' }
          : { ...fields, ...(user.consent ? { grant: user.consent.join(' ') } : {}) };
        at = await browser.follow(action, outside, { form });
      }
      if (at.page) throw new Error(`the provider kept asking at ${at.url}`);
      return new URL(at.url);
    },

    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
  return op;
}

/**
 * A person's browser, as far as OAuth needs one: follows redirects one at a time, keeps cookies
 * (per host name, as browsers do, whatever the port), and submits forms.
 */
export class Browser {
  private readonly cookies = new Map<string, Map<string, string>>();
  /** Every URL visited, in order. */
  readonly visited: string[] = [];

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.cookies.get(target.hostname) ?? new Map<string, string>();
    this.cookies.set(target.hostname, jar);
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = target.origin;
      body = new URLSearchParams(init.form).toString();
    }
    this.visited.push(url);
    const res = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    return res;
  }

  /**
   * Follows redirects from `url` (submitting `init.form` there first) until a page that is not a
   * redirect, or a URL `stop` accepts (e.g. the client's redirect URI), which is returned unvisited.
   */
  async follow(url: string, stop: (url: URL) => boolean, init?: { form?: Record<string, string> }): Promise<{ url: string; page?: Response }> {
    let next = url;
    let first = init;
    for (let hops = 0; hops < 20; hops++) {
      if (stop(new URL(next))) return { url: next };
      const res = await this.request(next, first);
      first = undefined;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        next = new URL(location, next).toString();
        continue;
      }
      return { url: next, page: res };
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/** The action of the first form on an HTML page and its hidden inputs. */
export function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name && /type="hidden"/.test(input[0])) fields[name] = decodeEntities(value ?? '');
  }
  return { action: new URL(decodeEntities(form[1]), base).toString(), fields };
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
