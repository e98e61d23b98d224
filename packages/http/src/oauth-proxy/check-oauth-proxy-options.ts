/** The construction checks of the OAuth proxy's options: a bad value throws an InvalidOptionError naming it. */
import { InvalidOptionError } from '@typemcp/protocol';
import type { OAuthProxyOptions } from './oauth-proxy-options.interface.js';

const invalid = (option: string, message: string) => new InvalidOptionError(option, `Invalid option "${option}": ${message}.`);

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Throws an InvalidOptionError for the first proxy option that cannot work. */
export function checkOAuthProxyOptions(o: OAuthProxyOptions, prefix = 'oauthProxy'): void {
  if (o === null || typeof o !== 'object') throw invalid(prefix, 'it must be an object');
  if (!isUrl(o.baseUrl) || new URL(o.baseUrl).pathname !== '/')
    throw invalid(`${prefix}.baseUrl`, 'it must be the http(s) origin of this server, such as https://mcp.example.com');
  if (o.resource !== undefined && !isUrl(o.resource)) throw invalid(`${prefix}.resource`, 'it must be an absolute http(s) URL');
  const up = o.upstream as OAuthProxyOptions['upstream'] | undefined;
  if (!up || typeof up !== 'object') throw invalid(`${prefix}.upstream`, "it must name the upstream provider and this server's client there");
  if (typeof up.clientId !== 'string' || !up.clientId) throw invalid(`${prefix}.upstream.clientId`, 'it must be the client id registered at the upstream');
  if (up.clientSecret !== undefined && typeof up.clientSecret !== 'string') throw invalid(`${prefix}.upstream.clientSecret`, 'it must be a string');
  const endpoints = up.authorizationEndpoint !== undefined && up.tokenEndpoint !== undefined;
  if (!endpoints && !isUrl(up.issuer)) throw invalid(`${prefix}.upstream`, 'give authorizationEndpoint and tokenEndpoint, or issuer to discover them');
  for (const key of ['authorizationEndpoint', 'tokenEndpoint'] as const) {
    if (up[key] !== undefined && !isUrl(up[key])) throw invalid(`${prefix}.upstream.${key}`, 'it must be an absolute http(s) URL');
  }
  if (o.scopes !== undefined && (!Array.isArray(o.scopes) || !o.scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s)))) {
    throw invalid(`${prefix}.scopes`, 'it must be an array of scope tokens (RFC 6749 §3.3)');
  }
  for (const key of ['accessTokenTtlSeconds', 'refreshTokenTtlSeconds', 'clientTtlSeconds', 'maxRedirectUris'] as const) {
    const v = o[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw invalid(`${prefix}.${key}`, 'it must be a positive integer');
  }
  if (o.consentTtlSeconds !== undefined && (!Number.isInteger(o.consentTtlSeconds) || o.consentTtlSeconds < 0)) {
    throw invalid(`${prefix}.consentTtlSeconds`, 'it must be a non-negative integer (0: ask every time)');
  }
  const store = o.store as unknown as Record<string, unknown> | undefined;
  if (store !== undefined && (store === null || typeof store !== 'object' || !['get', 'set', 'take', 'delete'].every((m) => typeof store[m] === 'function'))) {
    throw invalid(`${prefix}.store`, 'it must implement OAuthProxyStore (get, set, take, delete)');
  }
  if (o.dpop !== undefined && typeof o.dpop !== 'boolean') throw invalid(`${prefix}.dpop`, 'it must be a boolean');
  if (o.dynamicRegistration !== undefined && typeof o.dynamicRegistration !== 'boolean') throw invalid(`${prefix}.dynamicRegistration`, 'it must be a boolean');
  if (o.clientMetadataDocuments !== undefined) checkCimd(o.clientMetadataDocuments, `${prefix}.clientMetadataDocuments`);
  if (o.machineClients !== undefined) checkMachines(o, `${prefix}.machineClients`);
  if (o.enterpriseIdps !== undefined) checkIdps(o.enterpriseIdps, `${prefix}.enterpriseIdps`);
}

function checkMachines(o: OAuthProxyOptions, at: string): void {
  const list = o.machineClients as unknown;
  if (!Array.isArray(list)) throw invalid(at, 'it must be an array of machine clients');
  const ids = new Set<string>();
  list.forEach((m: NonNullable<OAuthProxyOptions['machineClients']>[number], i) => {
    const here = `${at}[${i}]`;
    if (m === null || typeof m !== 'object') throw invalid(here, 'it must be an object');
    if (typeof m.clientId !== 'string' || !m.clientId || m.clientId.length > 200 || m.clientId.startsWith('https://')) {
      throw invalid(`${here}.clientId`, 'it must be a client id of at most 200 characters, not an https URL (those are metadata documents)');
    }
    if (ids.has(m.clientId)) throw invalid(`${here}.clientId`, `${m.clientId} is given twice`);
    ids.add(m.clientId);
    if (m.clientSecret === undefined && m.jwks === undefined) throw invalid(here, 'give clientSecret or jwks (private_key_jwt), or both');
    if (m.clientSecret !== undefined && (typeof m.clientSecret !== 'string' || m.clientSecret.length < 32)) {
      throw invalid(`${here}.clientSecret`, 'it must be a string of at least 32 characters');
    }
    if (m.jwks !== undefined && (m.jwks === null || !Array.isArray(m.jwks.keys) || m.jwks.keys.some((k) => k === null || typeof k !== 'object' || 'd' in k))) {
      throw invalid(`${here}.jwks`, 'it must be a JWK set of public keys ({ keys: [...] }, no private parts)');
    }
    const scopes = o.scopes ?? [];
    if (!Array.isArray(m.scopes) || !m.scopes.every((s) => typeof s === 'string')) throw invalid(`${here}.scopes`, 'it must be an array of scopes');
    if (o.scopes !== undefined && !m.scopes.every((s) => scopes.includes(s)))
      throw invalid(`${here}.scopes`, `it may hold only the proxy's scopes (${scopes.join(', ')})`);
  });
}

function checkIdps(list: unknown, at: string): void {
  if (!Array.isArray(list)) throw invalid(at, 'it must be an array of enterprise identity providers');
  list.forEach((idp: NonNullable<OAuthProxyOptions['enterpriseIdps']>[number], i) => {
    const here = `${at}[${i}]`;
    if (idp === null || typeof idp !== 'object' || !isUrl(idp.issuer)) throw invalid(`${here}.issuer`, "it must be the IdP's issuer URL");
    if (idp.jwksUri !== undefined && !isUrl(idp.jwksUri)) throw invalid(`${here}.jwksUri`, 'it must be an absolute http(s) URL');
    if (
      idp.algorithms !== undefined &&
      (!Array.isArray(idp.algorithms) || idp.algorithms.length === 0 || idp.algorithms.some((a) => typeof a !== 'string' || a === 'none' || a.startsWith('HS')))
    ) {
      throw invalid(`${here}.algorithms`, 'it must list asymmetric JWS algorithms (no none, no HS*)');
    }
    if (idp.maxLifetimeSeconds !== undefined && (!Number.isInteger(idp.maxLifetimeSeconds) || idp.maxLifetimeSeconds < 1)) {
      throw invalid(`${here}.maxLifetimeSeconds`, 'it must be a positive integer');
    }
  });
}

const HOST_PATTERN = /^(\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\]|\d+\.\d+\.\d+\.\d+)$/;
const KINDS = new Set(['loopback', 'private', 'link-local', 'unique-local', 'unspecified', 'multicast', 'reserved']);

function checkCimd(c: NonNullable<OAuthProxyOptions['clientMetadataDocuments']>, at: string): void {
  if (c === null || typeof c !== 'object') throw invalid(at, 'it must be an object with trustedHosts');
  if (!Array.isArray(c.trustedHosts) || c.trustedHosts.length === 0 || !c.trustedHosts.every((h) => typeof h === 'string' && HOST_PATTERN.test(h))) {
    throw invalid(`${at}.trustedHosts`, "it must list host names, '*.' patterns (*.example.com) or '*', in lower case");
  }
  if (
    c.allowAddresses !== undefined &&
    (!Array.isArray(c.allowAddresses) || !(c.allowAddresses as unknown[]).every((k) => typeof k === 'string' && KINDS.has(k)))
  ) {
    throw invalid(`${at}.allowAddresses`, `it may hold only ${[...KINDS].join(', ')}`);
  }
  for (const key of ['maxBytes', 'timeoutMs', 'maxCacheEntries', 'maxCacheSeconds'] as const) {
    const v = c[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw invalid(`${at}.${key}`, 'it must be a positive integer');
  }
  if (c.defaultCacheSeconds !== undefined && (!Number.isInteger(c.defaultCacheSeconds) || c.defaultCacheSeconds < 0)) {
    throw invalid(`${at}.defaultCacheSeconds`, 'it must be a non-negative integer');
  }
}
