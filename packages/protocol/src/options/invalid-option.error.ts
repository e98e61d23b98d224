/**
 * The error every package throws for a bad construction option, with the checks that produce
 * it: a bad value is refused when the server is built, not discovered while serving.
 */
import { ProtocolErrorCode } from '../errors.js';

/** Largest delay Node timers accept (larger ones fire after 1 ms). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A construction option with a value the server cannot work with. `code` is stable;
 * `option` names the option; the message says what is accepted.
 * @publicApi
 */
export class InvalidOptionError extends Error {
  override readonly name = 'InvalidOptionError';
  readonly code = ProtocolErrorCode.InvalidOption;

  constructor(
    /** The option, e.g. `pageSize` or `cache.tools.ttlMs`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

function refuse(option: string, value: unknown, expected: string, fallback?: unknown): InvalidOptionError {
  const tail = fallback === undefined ? '' : `, or leave it out for the default (${shown(fallback)})`;
  return new InvalidOptionError(option, `Invalid option "${option}": ${shown(value)}; it must be ${expected}${tail}.`);
}

/**
 * Checks of optional option values: each accepts `undefined` and throws an
 * {@link InvalidOptionError} for anything else it does not accept.
 * @publicApi
 */
export const checkOption = {
  /** An integer in `[min, max]`. */
  integer(option: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER, fallback?: number): void {
    if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max)) return;
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw refuse(option, value, range, fallback);
  },

  /** A duration in ms a Node timer can wait: an integer in `[min, MAX_TIMER_MS]`. */
  ms(option: string, value: unknown, min: number, fallback?: number): void {
    checkOption.integer(option, value, min, MAX_TIMER_MS, fallback);
  },

  boolean(option: string, value: unknown, fallback?: boolean): void {
    if (value !== undefined && typeof value !== 'boolean') throw refuse(option, value, 'true or false', fallback);
  },

  function(option: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'function') throw refuse(option, value, 'a function');
  },

  /** A string, non-empty unless `empty`. */
  string(option: string, value: unknown, empty = false, fallback?: string): void {
    if (value === undefined || (typeof value === 'string' && (empty || value.length > 0))) return;
    throw refuse(option, value, empty ? 'a string' : 'a non-empty string', fallback);
  },

  /** A plain object (not null, not an array). */
  object(option: string, value: unknown): void {
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) throw refuse(option, value, 'an object');
  },

  /** An array. */
  array(option: string, value: unknown): void {
    if (value !== undefined && !Array.isArray(value)) throw refuse(option, value, 'an array');
  },

  /** One of `allowed`. */
  oneOf(option: string, value: unknown, allowed: readonly unknown[], fallback?: unknown): void {
    if (value !== undefined && !allowed.includes(value)) throw refuse(option, value, `one of ${allowed.map(shown).join(', ')}`, fallback);
  },
};
