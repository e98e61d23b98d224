/**
 * Where token buckets live. The port is one atomic operation, `take`, so that instances can
 * share counters: a Redis store implements it with one Lua script (read the bucket, refill, take
 * or refuse, write it back with an expiry at the time it is full again), which is exactly
 * {@link takeTokens}. The memory store keeps buckets in a bounded map.
 */
import { checkOption } from '../options/invalid-option.error.js';
import { fullAt, takeTokens, type BucketRule, type BucketState, type RateLimitDecision } from './token-bucket.js';

/**
 * Token buckets by key. `take` must be atomic per key: read, refill, take `cost` tokens or
 * refuse, and write back, with no other take of the same key in between.
 * @publicApi
 */
export interface RateLimitStore {
  /**
   * Takes `cost` tokens from the bucket of `key` (shaped by `rule`) at time `now` (ms since the
   * epoch, from the limiter's clock; a shared store may use its own clock instead). A key never
   * seen is a full bucket. A store may forget a bucket once it is full again.
   */
  take(key: string, rule: BucketRule, now: number, cost: number): RateLimitDecision | Promise<RateLimitDecision>;
}

/** Options of {@link MemoryRateLimitStore}. @publicApi */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most buckets kept (default 100 000). Past it the least recently used bucket is dropped: its
   * key starts again from a full bucket, so the bound trades precision for memory only under
   * more distinct callers than this.
   */
  maxKeys?: number;
}

interface Entry extends BucketState {
  /** When the bucket is full again: from then on it can be dropped without changing any decision. */
  full: number;
}

/** Buckets inspected for eviction per take: keeps idle buckets from piling up at O(1) per call. */
const SWEEP_PER_TAKE = 2;

/**
 * Token buckets in memory, for one process. Bounded: a bucket that has refilled is dropped (the
 * least recently used ones are looked at on every take), and at most `maxKeys` are kept.
 * @publicApi
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** In least recently used order (a take moves its key to the end). */
  private readonly buckets = new Map<string, Entry>();
  private readonly maxKeys: number;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: MemoryRateLimitStoreOptions = {}) {
    checkOption.object('options', options);
    checkOption.integer('maxKeys', options.maxKeys, 1, Number.MAX_SAFE_INTEGER, 100_000);
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /** {@inheritDoc RateLimitStore.take} */
  take(key: string, rule: BucketRule, now: number, cost: number): RateLimitDecision {
    const entry = this.buckets.get(key);
    if (entry) this.buckets.delete(key);
    this.sweep(now);
    const { state, decision } = takeTokens(entry, rule, now, cost);
    const kept = state as Entry;
    kept.full = fullAt(state, rule);
    this.buckets.set(key, kept);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return decision;
  }

  /** Buckets held now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops every bucket. */
  clear(): void {
    this.buckets.clear();
  }

  private sweep(now: number): void {
    let i = 0;
    for (const [key, entry] of this.buckets) {
      if (i++ === SWEEP_PER_TAKE || entry.full > now) return;
      this.buckets.delete(key);
    }
  }
}
