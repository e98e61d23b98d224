/**
 * The token bucket and its memory store, on an injected clock (no timers, nothing flaky): a
 * burst of `capacity` then refusals with the exact wait, refill at the configured rate, a
 * property over random call sequences (never more calls than capacity + rate x elapsed), and the
 * memory bound (100 000 distinct keys stay under `maxKeys`; refilled buckets are dropped).
 */
import fc from 'fast-check';
import { ErrorCode, InvalidOptionError, MemoryRateLimitStore, RateLimitedError, RateLimiter, takeTokens, type RateLimitDecision } from '@typemcp/protocol';

/** A limiter on a clock the test moves. */
function limiterAt(capacity: number, refillPerSecond: number, store = new MemoryRateLimitStore()) {
  const clock = { now: 1_000_000 };
  const limiter = new RateLimiter({ capacity, refillPerSecond, store, clock: () => clock.now });
  return { limiter, clock, store, take: (key = 'k') => limiter.take(key) as RateLimitDecision };
}

describe('token bucket', () => {
  it('allows a burst of capacity, then refuses with the time until one token is back', () => {
    const { take } = limiterAt(3, 2);
    expect([take(), take(), take()].map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(take()).toEqual({ allowed: false, remaining: 0, retryAfterMs: 500 });
  });

  it('refills continuously at refillPerSecond, never above capacity', () => {
    const { take, clock } = limiterAt(2, 0.5);
    take();
    take();
    clock.now += 1999;
    expect(take()).toMatchObject({ allowed: false, retryAfterMs: 1 });
    clock.now += 1;
    expect(take()).toMatchObject({ allowed: true, remaining: 0 });
    clock.now += 3_600_000;
    expect([take(), take(), take()].map((d) => d.allowed)).toEqual([true, true, false]);
  });

  it('adds nothing when the clock goes backwards', () => {
    const { take, clock } = limiterAt(1, 1);
    take();
    clock.now -= 10_000;
    expect(take()).toMatchObject({ allowed: false });
  });

  it('keeps keys apart', () => {
    const { take } = limiterAt(1, 1);
    expect(take('a').allowed).toBe(true);
    expect(take('a').allowed).toBe(false);
    expect(take('b').allowed).toBe(true);
  });

  it('keeps its promise where floating point would leave the refill a hair short of a token', () => {
    // Found by the property below: (1 - 0.07228) x 1000 / 0.010000000000000007 rounds to a wait
    // after which the bucket holds 0.99999999... tokens.
    const rule = { capacity: 10, refillPerSecond: 0.010000000000000007 };
    const state = { tokens: 0.07227999999999922, at: 7228 };
    const refused = takeTokens({ ...state }, rule, 7228, 1).decision;
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterMs: 92773 });
    expect(takeTokens({ ...state }, rule, 7228 + refused.retryAfterMs, 1).decision.allowed).toBe(true);
  });

  it('never allows more than capacity + refillPerSecond x elapsed calls (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 200 }),
        (capacity, rate, gaps) => {
          let state;
          let now = 0;
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            const out = takeTokens(state, { capacity, refillPerSecond: rate }, now, 1);
            state = out.state;
            if (out.decision.allowed) allowed++;
            else {
              // The promised wait is enough, and not more than one token's worth.
              const retry = takeTokens({ ...state }, { capacity, refillPerSecond: rate }, now + out.decision.retryAfterMs, 1);
              expect(retry.decision.allowed).toBe(true);
              expect(out.decision.retryAfterMs).toBeLessThanOrEqual(Math.ceil(1000 / rate) + 1);
            }
          }
          expect(allowed).toBeLessThanOrEqual(capacity + (now * rate) / 1000 + 1e-9);
        },
      ),
    );
  });
});

describe('MemoryRateLimitStore', () => {
  it('holds at most maxKeys buckets: 100 000 distinct callers do not grow it past the bound', () => {
    const { take, store } = limiterAt(5, 0.001, new MemoryRateLimitStore({ maxKeys: 1000 }));
    for (let i = 0; i < 100_000; i++) take(`caller-${i}`);
    expect(store.size).toBe(1000);
    // The most recent callers are the ones kept: the last one's bucket still has its take.
    expect(take('caller-99999').remaining).toBe(3);
  });

  it('defaults to a bound of 100 000 keys', () => {
    const { take, store } = limiterAt(5, 0.001);
    for (let i = 0; i < 100_050; i++) take(`caller-${i}`);
    expect(store.size).toBe(100_000);
  });

  it('drops buckets once they have refilled (idle callers cost nothing)', () => {
    const { take, store, clock } = limiterAt(2, 10);
    for (let i = 0; i < 50; i++) take(`idle-${i}`);
    expect(store.size).toBe(50);
    // 100 ms refills one token: every idle bucket is full again and worth nothing.
    clock.now += 100;
    for (let i = 0; i < 30; i++) take(`busy-${i % 3}`);
    expect(store.size).toBeLessThan(50);
    for (let i = 0; i < 100; i++) take(`busy-${i % 3}`);
    expect(store.size).toBe(3);
  });

  it('forgets nothing that still matters: a bucket that has not refilled keeps its count', () => {
    const { take, clock } = limiterAt(1, 1);
    take('slow');
    for (let i = 0; i < 100; i++) take(`other-${i}`);
    clock.now += 500;
    expect(take('slow')).toMatchObject({ allowed: false, retryAfterMs: 500 });
  });
});

describe('options and errors', () => {
  it.each([
    [{ capacity: 0, refillPerSecond: 1 }, 'rateLimit.capacity'],
    [{ capacity: 1.5, refillPerSecond: 1 }, 'rateLimit.capacity'],
    [{ refillPerSecond: 1 }, 'rateLimit.capacity'],
    [{ capacity: 1, refillPerSecond: 0 }, 'rateLimit.refillPerSecond'],
    [{ capacity: 1, refillPerSecond: Infinity }, 'rateLimit.refillPerSecond'],
    [{ capacity: 1, refillPerSecond: 1, store: {} }, 'rateLimit.store'],
    [{ capacity: 1, refillPerSecond: 1, clock: 5 }, 'rateLimit.clock'],
  ])('refuses %j naming %s', (options, option) => {
    expect(() => new RateLimiter(options as never)).toThrow(expect.objectContaining({ name: 'InvalidOptionError', option }));
  });

  it('refuses a bad maxKeys', () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(InvalidOptionError);
  });

  it('RateLimitedError is the JSON-RPC error -32004 with data.retryAfterMs', () => {
    const error = new RateLimitedError(1500);
    expect(error.toJSON()).toEqual({
      code: ErrorCode.RateLimited,
      message: 'Rate limit exceeded; retry in 1500 ms',
      data: { code: 'TYPEMCP_RATE_LIMITED', retryAfterMs: 1500 },
    });
    expect(ErrorCode.RateLimited).toBe(-32004);
  });
});
