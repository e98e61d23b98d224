/**
 * The construction checks of {@link HttpOptions} (and serveHttp's `port`): a bad value throws
 * an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) naming it, before anything listens.
 */
import { InvalidOptionError } from '@typemcp/protocol';
import { checkOption as check } from '@typemcp/protocol/internal';
import type { HttpOptions } from '../http-options.interface.js';
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

function checkAuth(auth: HttpOptions['auth']): void {
  check.object('auth', auth);
  if (auth === undefined) return;
  if (typeof auth.verify !== 'function') throw invalid('auth.verify', 'it must be a function (token, req) => principal | undefined');
  // eslint-disable-next-line @typescript-eslint/unbound-method -- only its type is checked
  check.function('auth.samePrincipal', auth.samePrincipal);
  check.string('auth.resourceMetadataUrl', auth.resourceMetadataUrl);
  check.object('auth.protectedResource', auth.protectedResource);
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
  check.ms('retryMs', options.retryMs, 0, D.retryMs);
  check.ms('keepAliveMs', options.keepAliveMs, 0, D.keepAliveMs);
  check.ms('graceMs', options.graceMs, 0, D.graceMs);
  check.integer('oversizeDrainBytes', options.oversizeDrainBytes, 0, Number.MAX_SAFE_INTEGER, D.oversizeDrainBytes);
  check.ms('oversizeDrainMs', options.oversizeDrainMs, 0, D.oversizeDrainMs);
  const timeouts = options as { headersTimeoutMs?: unknown; requestTimeoutMs?: unknown };
  check.ms('headersTimeoutMs', timeouts.headersTimeoutMs, 0, D.headersTimeoutMs);
  check.ms('requestTimeoutMs', timeouts.requestTimeoutMs, 0, D.requestTimeoutMs);
  check.function('onError', options.onError);
}
