/**
 * The construction checks of {@link HttpOptions} (and serveHttp's `port`): a bad value throws
 * an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) naming it, before anything listens.
 */
import { InvalidOptionError } from '@typemcp/protocol';
import { checkLogger, checkOption as check } from '@typemcp/protocol/internal';
import type { AuthOptions, HttpOptions } from '../http-options.interface.js';
import { JwtVerifier, REFUSED_ALGORITHM } from '../security/jwt-verifier.js';
import { HTTP_DEFAULTS as D } from './http-defaults.js';

const STORE_METHODS = ['get', 'add', 'delete', 'values', 'dispose'];

function invalid(option: string, message: string): InvalidOptionError {
  return new InvalidOptionError(option, `Invalid option "${option}": ${message}.`);
}

function checkList(option: string, value: unknown): void {
  if (value === undefined || value === false) return;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length > 0)) {
    throw invalid(option, 'it must be an array of non-empty strings, or false to turn the check off');
  }
}

function checkUrl(option: string, value: unknown): void {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw invalid(option, 'it must be an http(s) URL');
}

function checkStrings(option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'string' && value !== '')) return;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw invalid(option, 'it must be a non-empty string or a non-empty array of them');
  }
}

function checkJwt(jwt: NonNullable<AuthOptions['jwt']>): void {
  check.object('auth.jwt', jwt);
  if (jwt.jwksUri !== undefined && jwt.key !== undefined)
    throw invalid('auth.jwt', 'give jwksUri or key, not both (neither: the JWKS is discovered from issuer)');
  if (jwt.jwksUri !== undefined) checkUrl('auth.jwt.jwksUri', jwt.jwksUri);
  if (jwt.issuer === undefined) throw invalid('auth.jwt.issuer', 'it is required: the "iss" the tokens must carry');
  checkStrings('auth.jwt.issuer', jwt.issuer);
  if (jwt.jwksUri === undefined && jwt.key === undefined) {
    // The JWKS comes from the issuer's metadata: one issuer, an http(s) URL.
    if (typeof jwt.issuer !== 'string') throw invalid('auth.jwt.issuer', 'give one issuer to discover the JWKS from, or give jwksUri');
    checkUrl('auth.jwt.issuer', jwt.issuer);
  }
  checkStrings('auth.jwt.audience', jwt.audience);
  check.array('auth.jwt.algorithms', jwt.algorithms);
  if (jwt.algorithms !== undefined) {
    if (jwt.algorithms.length === 0) throw invalid('auth.jwt.algorithms', 'it must list at least one algorithm');
    const refused = jwt.algorithms.find((a) => typeof a !== 'string' || REFUSED_ALGORITHM.test(a));
    if (refused !== undefined) {
      throw invalid('auth.jwt.algorithms', `${JSON.stringify(refused)} is refused: only asymmetric signatures are accepted (never "none", never HMAC)`);
    }
  }
  check.integer('auth.jwt.clockToleranceSec', jwt.clockToleranceSec, 0, 300, 5);
  check.string('auth.jwt.typ', jwt.typ);
  check.ms('auth.jwt.jwksTimeoutMs', jwt.jwksTimeoutMs, 1, 5_000);
  check.ms('auth.jwt.jwksCooldownMs', jwt.jwksCooldownMs, 0, 30_000);
  check.ms('auth.jwt.jwksMaxAgeMs', jwt.jwksMaxAgeMs, 1, 600_000);
  if (jwt.key !== undefined) {
    try {
      new JwtVerifier(jwt);
    } catch (error) {
      throw invalid('auth.jwt.key', `it must be a public key (KeyObject, public JWK or SPKI PEM): ${(error as Error).message}`);
    }
  }
}

function checkIntrospection(introspection: NonNullable<AuthOptions['introspection']>): void {
  check.object('auth.introspection', introspection);
  checkUrl('auth.introspection.endpoint', introspection.endpoint);
  if (typeof introspection.clientId !== 'string' || introspection.clientId === '')
    throw invalid('auth.introspection.clientId', 'it must be a non-empty string');
  if (typeof introspection.clientSecret !== 'string' || introspection.clientSecret === '') {
    throw invalid('auth.introspection.clientSecret', 'it must be a non-empty string');
  }
  checkStrings('auth.introspection.audience', introspection.audience);
  check.string('auth.introspection.issuer', introspection.issuer);
  check.ms('auth.introspection.cacheTtlMs', introspection.cacheTtlMs, 0, 30_000);
  check.integer('auth.introspection.cacheMax', introspection.cacheMax, 1, Number.MAX_SAFE_INTEGER, 1_000);
  check.ms('auth.introspection.timeoutMs', introspection.timeoutMs, 1, 5_000);
}

function checkAuth(auth: HttpOptions['auth']): void {
  check.object('auth', auth);
  if (auth === undefined) return;
  const ways = [auth.jwt !== undefined, auth.introspection !== undefined, auth.verify !== undefined].filter(Boolean).length;
  if (ways !== 1) throw invalid('auth', 'give exactly one of jwt, introspection and verify');
  if (auth.jwt !== undefined) checkJwt(auth.jwt);
  if (auth.introspection !== undefined) checkIntrospection(auth.introspection);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- only its type is checked
  check.function('auth.verify', auth.verify);
  check.boolean('auth.hideUnauthorized', auth.hideUnauthorized, true);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- only its type is checked
  check.function('auth.samePrincipal', auth.samePrincipal);
  check.string('auth.resourceMetadataUrl', auth.resourceMetadataUrl);
  check.object('auth.protectedResource', auth.protectedResource);
  check.object('auth.dpop', auth.dpop);
  if (auth.dpop !== undefined) {
    check.boolean('auth.dpop.required', auth.dpop.required, false);
    check.integer('auth.dpop.maxProofAgeSeconds', auth.dpop.maxProofAgeSeconds, 1, 600, 60);
  }
}

/** Throws for the first HTTP option that cannot work. */
export function checkHttpOptions(options: HttpOptions & { port?: unknown }): void {
  check.object('options', options);
  check.integer('port', options.port, 0, 65_535, D.port);
  check.string('host', options.host, false, D.host);
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/'))) {
    throw invalid('path', `it must be a path starting with "/", or leave it out for the default ("${D.path}")`);
  }
  check.boolean('legacySse', options.legacySse, D.legacySse);
  check.boolean('jsonResponse', options.jsonResponse, D.jsonResponse);
  check.boolean('sessions', options.sessions, D.sessions);
  check.boolean('health', options.health, D.health);
  check.boolean('log', options.log, D.log);
  checkList('allowedHosts', options.allowedHosts);
  if (options.publicUrl !== undefined) {
    checkUrl('publicUrl', options.publicUrl);
    const url = new URL(options.publicUrl);
    if (url.search || url.hash || url.username || url.password)
      throw invalid('publicUrl', 'it must be an origin with an optional path, without query, fragment or credentials');
  }
  check.boolean('trustProxy', options.trustProxy, false);
  check.array('readinessChecks', options.readinessChecks);
  for (const c of options.readinessChecks ?? []) {
    if (c === null || typeof c !== 'object' || typeof c.name !== 'string' || c.name === '' || typeof c.check !== 'function') {
      throw invalid('readinessChecks', 'each entry must be { name, check(), timeoutMs? } with a non-empty name');
    }
    check.ms('readinessChecks.timeoutMs', c.timeoutMs, 1, 2_000);
  }
  checkList('allowedOrigins', options.allowedOrigins);
  checkAuth(options.auth);
  check.integer('maxBodyBytes', options.maxBodyBytes, 1, Number.MAX_SAFE_INTEGER, D.maxBodyBytes);
  check.ms('idleTimeoutMs', options.idleTimeoutMs, 1, D.idleTimeoutMs);
  check.integer('maxSessions', options.maxSessions, 1, Number.MAX_SAFE_INTEGER, D.maxSessions);
  const store = options.sessionStore as Record<string, unknown> | undefined;
  if (store !== undefined) {
    if (store === null || typeof store !== 'object' || !STORE_METHODS.every((m) => typeof store[m] === 'function')) {
      throw invalid('sessionStore', `it must implement SessionStore (${STORE_METHODS.join(', ')})`);
    }
    for (const ignored of ['idleTimeoutMs', 'maxSessions'] as const) {
      if (options[ignored] !== undefined) {
        throw invalid(ignored, `a custom sessionStore ignores it; configure the store itself (e.g. new MemorySessionStore({ ${ignored} }))`);
      }
    }
  }
  const events = options.eventStore as unknown;
  if (events !== undefined && events !== false && (events === null || typeof events !== 'object')) {
    throw invalid('eventStore', 'it must be an EventStore, or false to turn resumability off');
  }
  const state = options.state as unknown as Record<string, unknown> | undefined;
  if (state !== undefined && (state === null || typeof state !== 'object' || typeof state.start !== 'function' || typeof state.loadSession !== 'function')) {
    throw invalid('state', 'it must be a SharedState (e.g. redisState({ url }) of @typemcp/redis)');
  }
  check.ms('retryMs', options.retryMs, 0, D.retryMs);
  check.ms('keepAliveMs', options.keepAliveMs, 0, D.keepAliveMs);
  check.ms('graceMs', options.graceMs, 0, D.graceMs);
  check.integer('oversizeDrainBytes', options.oversizeDrainBytes, 0, Number.MAX_SAFE_INTEGER, D.oversizeDrainBytes);
  check.ms('oversizeDrainMs', options.oversizeDrainMs, 0, D.oversizeDrainMs);
  const serve = options as { headersTimeoutMs?: unknown; requestTimeoutMs?: unknown; handleSignals?: unknown; drainMs?: unknown; shutdownTimeoutMs?: unknown };
  check.ms('headersTimeoutMs', serve.headersTimeoutMs, 0, D.headersTimeoutMs);
  check.ms('requestTimeoutMs', serve.requestTimeoutMs, 0, D.requestTimeoutMs);
  check.boolean('handleSignals', serve.handleSignals, D.handleSignals);
  check.ms('drainMs', serve.drainMs, 0, D.drainMs);
  check.ms('shutdownTimeoutMs', serve.shutdownTimeoutMs, 1, D.shutdownTimeoutMs);
  check.function('onError', options.onError);
  checkLogger('logger', options.logger);
  check.object('rateLimit', options.rateLimit);
  check.function('rateLimit.key', options.rateLimit?.key);
}
