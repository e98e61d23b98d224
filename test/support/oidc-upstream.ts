/**
 * A real OpenID Connect provider (oidc-provider 9, the certified library) on 127.0.0.1 for the
 * authorization tests, run in a child process (it is ESM only; Jest runs the suite as CommonJS).
 *
 * - `registration`: dynamic client registration on or off (off: an upstream like GitHub or Google).
 * - `clients`: pre-registered clients, e.g. a confidential client for the OAuth proxy with its redirect URI.
 * - `resourceServers`: resource indicators (RFC 8707) it issues JWT access tokens for, with their scopes.
 * - Login and consent are the provider's development interactions: a test drives them over HTTP
 *   with {@link Browser} (GET the page, POST the form), as a person in a browser would.
 * - `seen`: every request the provider received (method, path, headers, body), for tests that check
 *   what reached the upstream.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

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
  /** Dynamic client registration (RFC 7591); default false. */
  registration?: boolean;
  clients?: OidcClient[];
  /** Scopes beyond openid and offline_access. */
  scopes?: string[];
  /** Resource indicator -> the scopes it accepts and the audience of its JWT access tokens (default: the indicator). */
  resourceServers?: Record<string, { scope?: string; audience?: string; accessTokenTtl?: number }>;
  /** The resource used when a request names none. */
  defaultResource?: string;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface OidcProvider {
  readonly issuer: string;
  /** Every request the provider received so far. */
  readonly seen: SeenRequest[];
  close(): Promise<void>;
  /** A new signing key; the old one leaves the JWKS. */
  rotateKeys(): Promise<void>;
  /** An access token from the client credentials grant. */
  clientCredentialsToken(params: { clientId: string; clientSecret: string; scope?: string; resource?: string }): Promise<string>;
}

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProvider> {
  const child: ChildProcess = fork(path.join(__dirname, 'oidc-upstream.child.mjs'), [JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    execArgv: [],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString();
  });
  const seen: SeenRequest[] = [];
  child.on('message', (msg: { type: string } & SeenRequest) => {
    if (msg.type === 'seen') seen.push({ method: msg.method, path: msg.path, headers: msg.headers, body: msg.body });
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc-provider did not start in 10 s: ${stderr}`)), 10_000);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
  });
  child.removeAllListeners('exit');
  // Neither the process nor its channel keeps the test runner alive; close() ends it.
  child.unref();
  (child.channel as { unref?(): void } | undefined)?.unref?.();

  return {
    issuer,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
    rotateKeys: () =>
      new Promise<void>((resolve) => {
        const onMessage = (msg: { type: string }) => {
          if (msg.type !== 'rotated') return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
        child.send({ type: 'rotate' });
      }),
    async clientCredentialsToken({ clientId, clientSecret, scope, resource }) {
      const body = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope) body.set('scope', scope);
      if (resource) body.set('resource', resource);
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}` },
        body,
      });
      const json = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!json.access_token) throw new Error(`client_credentials failed: ${json.error}: ${json.error_description}`);
      return json.access_token;
    },
  };
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
    const jar = this.cookies.get(target.hostname);
    const headers: Record<string, string> = {};
    if (jar?.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = target.origin;
      body = new URLSearchParams(init.form).toString();
    }
    this.visited.push(url);
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line);
      const hostJar = this.cookies.get(target.hostname) ?? new Map<string, string>();
      if (expired) hostJar.delete(name);
      else hostJar.set(name, value);
      this.cookies.set(target.hostname, hostJar);
    }
    return res;
  }

  /**
   * Follows redirects from `url` until a page (200) or a URL `stop` accepts (the client's redirect
   * URI), which is returned unvisited.
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

/**
 * Drives oidc-provider's development login and consent pages from `page` (an interaction page)
 * as user `login`, and returns the URL the provider finally redirects to outside itself.
 */
export async function loginAndConsent(browser: Browser, issuer: string, start: { url: string; page?: Response }, login: string): Promise<string> {
  let current = start;
  for (let step = 0; step < 4; step++) {
    if (!current.page) return current.url;
    const html = await current.page.text();
    if (current.page.status !== 200) throw new Error(`upstream page ${current.url} answered ${current.page.status}: ${html.slice(0, 300)}`);
    const { action, fields } = formOf(html, current.url);
    const form = fields.prompt === 'login' ? { ...fields, login, password: 'any' } : fields;
    current = await browser.follow(action, (u) => u.origin !== new URL(issuer).origin, { form });
  }
  throw new Error('the upstream kept asking');
}
