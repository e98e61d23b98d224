/**
 * RFC 7591 client metadata checks for the proxy's registration endpoint: what a client may
 * register, bounded in count and size. Redirect URIs must be https, or http on a loopback
 * address (native apps, RFC 8252 §7.3), with no fragment (RFC 6749 §3.1.2).
 */

/** What the proxy keeps of a registered client. */
export interface RegisteredClient {
  redirect_uris: string[];
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  grant_types: string[];
  response_types: string[];
  client_name?: string;
  client_uri?: string;
  scope?: string;
}

/** A refused registration: `error` is an RFC 7591 §3.2.2 code. */
export class RegistrationError extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
  ) {
    super(description);
  }
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const AUTH_METHODS = new Set(['none', 'client_secret_post', 'client_secret_basic']);
const GRANTS = new Set(['authorization_code', 'refresh_token']);

const fail = (error: RegistrationError['error'], description: string): never => {
  throw new RegistrationError(error, description);
};

function checkRedirectUri(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000)
    return fail('invalid_redirect_uri', 'Each redirect URI must be a string of at most 2000 characters');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('invalid_redirect_uri', 'A redirect URI is not an absolute URL');
  }
  if (url.hash || value.includes('#')) fail('invalid_redirect_uri', 'A redirect URI must not have a fragment');
  if (url.username || url.password) fail('invalid_redirect_uri', 'A redirect URI must not carry credentials');
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp)
    fail('invalid_redirect_uri', 'A redirect URI must use https, or http on a loopback address (127.0.0.1, [::1], localhost)');
  return value;
}

function optionalString(body: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max) return fail('invalid_client_metadata', `${key} must be a string of at most ${max} characters`);
  return value;
}

function stringList(body: Record<string, unknown>, key: string, allowed: Set<string>, fallback: string[]): string[] {
  const value = body[key];
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length > 5 || !value.every((v) => typeof v === 'string' && allowed.has(v))) {
    return fail('invalid_client_metadata', `${key} may hold only ${[...allowed].join(', ')}`);
  }
  return [...new Set(value as string[])];
}

/** The client to register from a registration request's body, or throws a {@link RegistrationError}. */
export function checkClientMetadata(body: unknown, limits: { maxRedirectUris: number; scopes: readonly string[] }): RegisteredClient {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('invalid_client_metadata', 'The body must be a JSON object');
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return fail('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  if (uris.length > limits.maxRedirectUris) return fail('invalid_redirect_uri', `At most ${limits.maxRedirectUris} redirect URIs`);
  const redirectUris = [...new Set(uris.map(checkRedirectUri))];
  const method = b.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof method !== 'string' || !AUTH_METHODS.has(method)) {
    return fail('invalid_client_metadata', 'token_endpoint_auth_method must be none, client_secret_post or client_secret_basic');
  }
  const grantTypes = stringList(b, 'grant_types', GRANTS, ['authorization_code']);
  if (!grantTypes.includes('authorization_code')) fail('invalid_client_metadata', 'grant_types must include authorization_code');
  const responseTypes = stringList(b, 'response_types', new Set(['code']), ['code']);
  const scope = optionalString(b, 'scope', 1000);
  if (
    scope !== undefined &&
    !scope
      .split(' ')
      .filter(Boolean)
      .every((s) => limits.scopes.includes(s))
  ) {
    fail('invalid_client_metadata', `scope may hold only ${limits.scopes.join(', ') || 'nothing on this server'}`);
  }
  const clientName = optionalString(b, 'client_name', 200);
  const clientUri = optionalString(b, 'client_uri', 2000);
  return {
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method as RegisteredClient['token_endpoint_auth_method'],
    grant_types: grantTypes,
    response_types: responseTypes,
    ...(clientName !== undefined ? { client_name: clientName } : {}),
    ...(clientUri !== undefined ? { client_uri: clientUri } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
}
