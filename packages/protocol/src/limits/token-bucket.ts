/**
 * The token bucket, as one pure step: a bucket holds up to `capacity` tokens, refills
 * continuously at `refillPerSecond`, and a call takes `cost` tokens or is refused with the time
 * until enough have refilled. A store applies this step atomically per key (the memory store in
 * one synchronous call; a Redis store would run the same arithmetic in a Lua script).
 */

/** The shape of a bucket. @publicApi */
export interface BucketRule {
  /** Most tokens a bucket holds: the burst allowed after a quiet period. */
  readonly capacity: number;
  /** Tokens added per second, continuously (0.5: one call every two seconds). */
  readonly refillPerSecond: number;
}

/** What a bucket decided for one call. @publicApi */
export interface RateLimitDecision {
  /** True when the call may proceed (its tokens were taken). */
  readonly allowed: boolean;
  /** Whole tokens left after this call. */
  readonly remaining: number;
  /** When refused: milliseconds until the call would be allowed (at least 1); 0 when allowed. */
  readonly retryAfterMs: number;
}

/** A bucket's state: its tokens at time `at` (ms). @publicApi */
export interface BucketState {
  /** Tokens in the bucket at `at` (fractional while refilling). */
  tokens: number;
  /** When `tokens` was computed (ms). */
  at: number;
}

/**
 * One take from the bucket in `state` (undefined: a bucket never used, hence full) at time `now`
 * (ms). Mutates and returns `state` (a new one when undefined) with the decision. A clock that
 * goes backwards adds no tokens.
 */
export function takeTokens(state: BucketState | undefined, rule: BucketRule, now: number, cost: number): { state: BucketState; decision: RateLimitDecision } {
  const { capacity, refillPerSecond } = rule;
  let tokens = state ? Math.min(capacity, state.tokens + (Math.max(0, now - state.at) * refillPerSecond) / 1000) : capacity;
  let decision: RateLimitDecision;
  if (tokens >= cost) {
    tokens -= cost;
    decision = { allowed: true, remaining: Math.floor(tokens), retryAfterMs: 0 };
  } else {
    let wait = Math.max(1, Math.ceil(((cost - tokens) * 1000) / refillPerSecond));
    // Floating point may leave the refill a hair short at exactly `wait`: the promise must hold.
    if (tokens + (wait * refillPerSecond) / 1000 < cost) wait++;
    decision = { allowed: false, remaining: Math.floor(tokens), retryAfterMs: wait };
  }
  const next = state ?? { tokens, at: now };
  next.tokens = tokens;
  next.at = now;
  return { state: next, decision };
}

/** When the bucket in `state` is full again (ms): from then on it is the same as no bucket. */
export function fullAt(state: BucketState, rule: BucketRule): number {
  return state.at + ((rule.capacity - state.tokens) * 1000) / rule.refillPerSecond;
}
