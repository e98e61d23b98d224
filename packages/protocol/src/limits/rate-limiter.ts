/**
 * A rate limiter: a bucket rule, a store and a clock. The rate-limit interceptor of
 * @typemcp/core and the HTTP limiter of @typemcp/http are both one of these, so they share the
 * algorithm and can share a store.
 */
import { InvalidOptionError, checkOption } from '../options/invalid-option.error.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { ProtocolErrorCode } from '../errors.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import type { BucketRule, RateLimitDecision } from './token-bucket.js';

/** Options of a {@link RateLimiter}. @publicApi */
export interface RateLimiterOptions {
  /** Most calls in a burst: an integer >= 1. */
  capacity: number;
  /** Calls regained per second: a number > 0 (0.5: one every two seconds). */
  refillPerSecond: number;
  /** Where buckets live (default: a new {@link MemoryRateLimitStore} of this limiter's own). */
  store?: RateLimitStore;
  /** Milliseconds since the epoch (default `Date.now`); tests inject a fake clock. */
  clock?: () => number;
}

/** Takes tokens from per-key buckets. @publicApi */
export class RateLimiter {
  /** The shape of every bucket of this limiter. */
  readonly rule: BucketRule;
  /** Where its buckets live. */
  readonly store: RateLimitStore;
  private readonly clock: () => number;

  /**
   * Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work
   * with, naming it under `option` (e.g. `rateLimit.capacity`).
   */
  constructor(options: RateLimiterOptions, option = 'rateLimit') {
    checkRateLimiterOptions(options, option);
    this.rule = { capacity: options.capacity, refillPerSecond: options.refillPerSecond };
    this.store = options.store ?? new MemoryRateLimitStore();
    this.clock = options.clock ?? Date.now;
  }

  /** Takes one token from the bucket of `key`. */
  take(key: string): RateLimitDecision | Promise<RateLimitDecision> {
    return this.store.take(key, this.rule, this.clock(), 1);
  }
}

function checkRateLimiterOptions(options: RateLimiterOptions, option: string): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidOptionError(option, `Invalid option "${option}": give an object { capacity, refillPerSecond }.`);
  }
  if (options.capacity === undefined)
    throw new InvalidOptionError(`${option}.capacity`, `Invalid option "${option}.capacity": it is required (an integer >= 1).`);
  checkOption.integer(`${option}.capacity`, options.capacity, 1);
  const rate = options.refillPerSecond as unknown;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    throw new InvalidOptionError(
      `${option}.refillPerSecond`,
      `Invalid option "${option}.refillPerSecond": it must be a number greater than 0 (tokens per second).`,
    );
  }
  const store = options.store as { take?: unknown } | undefined;
  if (store !== undefined && (store === null || typeof store !== 'object' || typeof store.take !== 'function')) {
    throw new InvalidOptionError(`${option}.store`, `Invalid option "${option}.store": it must implement RateLimitStore (take).`);
  }
  checkOption.function(`${option}.clock`, options.clock);
}

/**
 * A call refused by a rate limiter: the JSON-RPC error {@link ErrorCode}.RateLimited (-32004)
 * with `data: { code: 'TYPEMCP_RATE_LIMITED', retryAfterMs }`.
 * @publicApi
 */
export class RateLimitedError extends McpError {
  /** Always `RateLimitedError`. */
  override readonly name = 'RateLimitedError';

  constructor(
    /** Milliseconds until a retry would be allowed. */
    readonly retryAfterMs: number,
  ) {
    super(ErrorCode.RateLimited, `Rate limit exceeded; retry in ${retryAfterMs} ms`, { code: ProtocolErrorCode.RateLimited, retryAfterMs });
  }
}
