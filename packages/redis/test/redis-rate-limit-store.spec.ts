/**
 * RedisRateLimitStore against a real Redis: the script's decisions are the token bucket's (a
 * reference model, random sequences), takes from several connections at once never hand out
 * more tokens than the bucket holds, a bucket's key expires once it is full again, the Redis
 * clock refills, and an unreachable Redis makes a take fail fast with a clear error.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { InvalidOptionError, takeTokens, type BucketRule, type BucketState } from '@typemcp/protocol';
import { createClient } from 'redis';
import { RedisRateLimitStore } from '../src/index';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

/** The reference: the protocol's own bucket step, with a full bucket the same as none (the store deletes it). */
function referenceTake(state: BucketState | undefined, rule: BucketRule, now: number, cost: number) {
  const step = takeTokens(state && { ...state }, rule, now, cost);
  return { state: step.state.tokens >= rule.capacity ? undefined : step.state, decision: step.decision };
}

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describeWithRedis('RedisRateLimitStore', redisUnavailable(), () => {
  const prefix = testPrefix('ratelimit');
  const stores: RedisRateLimitStore[] = [];
  const store = (clock: 'redis' | 'caller' = 'caller') => {
    const s = new RedisRateLimitStore({ url: REDIS_URL, prefix, clock, commandTimeoutMs: 5000 });
    stores.push(s);
    return s;
  };
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => {});

  beforeAll(() => redis.connect());
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await deleteKeys(prefix);
    redis.destroy();
  });

  it('decides as the token bucket does, over random sequences of times and costs (the caller clock)', async () => {
    const s = store();
    const seen = new Set<boolean>();
    for (let seed = 1; seed <= 8; seed++) {
      const next = random(seed);
      const rule = { capacity: 1 + Math.floor(next() * 10), refillPerSecond: [0.5, 1, 3.7, 20, 1000][Math.floor(next() * 5)] };
      const key = `model-${seed}`;
      let state: { tokens: number; at: number } | undefined;
      let now = 1_700_000_000_000;
      const decisions: unknown[] = [];
      const expected: unknown[] = [];
      for (let i = 0; i < 60; i++) {
        now += Math.floor(next() * 700);
        const cost = 1 + Math.floor(next() * 3);
        const step = referenceTake(state, rule, now, cost);
        state = step.state;
        expected.push(step.decision);
        decisions.push(await s.take(key, rule, now, cost));
      }
      expect({ seed, decisions }).toEqual({ seed, decisions: expected });
      for (const d of expected) seen.add((d as { allowed: boolean }).allowed);
    }
    // Both allowed and refused calls occurred, so the comparison covered both branches.
    expect([...seen].sort()).toEqual([false, true]);
  }, 60_000);

  it('never hands out more tokens than the bucket holds when three connections take at once', async () => {
    const three = [store(), store(), store()];
    const rule = { capacity: 50, refillPerSecond: 0.001 };
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => three[i % 3].take('shared', rule, now, 1)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    // Each allowed take saw a different number of tokens left: 49 down to 0.
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const refused of decisions.filter((d) => !d.allowed)) expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1000);
  }, 30_000);

  it('keeps a bucket only until it is full again: then its key is gone (an idle caller costs nothing)', async () => {
    const s = store();
    const rule = { capacity: 4, refillPerSecond: 40 };
    for (let i = 0; i < 3; i++) expect((await s.take('expiring', rule, Date.now(), 1)).allowed).toBe(true);
    const key = s.keyOf('expiring');
    const ttl = await redis.pTTL(key);
    // 3 tokens at 40 per second: full in 75 ms (less if the takes were spread out).
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(75);
    for (let i = 0; i < 100 && (await redis.exists(key)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await redis.exists(key)).toBe(0);
    // A long caller key is hashed: the Redis key stays short.
    await s.take('k'.repeat(10_000), rule, Date.now(), 1);
    expect(s.keyOf('k'.repeat(10_000)).length).toBeLessThan(100);
  }, 30_000);

  it("refills by the Redis server's clock by default (the caller's `now` is ignored)", async () => {
    const s = store('redis');
    const rule = { capacity: 1, refillPerSecond: 10 };
    expect(await s.take('clock', rule, 0, 1)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    // A `now` far in the future changes nothing: Redis's clock says no time passed.
    const refused = await s.take('clock', rule, Date.now() + 3_600_000, 1);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(100);
    // Waiting at least the time it said is always enough.
    await new Promise((r) => setTimeout(r, refused.retryAfterMs + 20));
    expect((await s.take('clock', rule, 0, 1)).allowed).toBe(true);
  }, 30_000);
});

describe('RedisRateLimitStore without Redis', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // A port that accepts TCP and never answers: a Redis that hangs.
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a take fails fast with a clear error when Redis does not answer', async () => {
    const port = (server.address() as AddressInfo).port;
    const s = new RedisRateLimitStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 300, commandTimeoutMs: 300 });
    const started = Date.now();
    await expect(s.take('k', { capacity: 1, refillPerSecond: 1 }, Date.now(), 1)).rejects.toThrow(/Redis is not reachable/);
    await expect(s.take('k', { capacity: 1, refillPerSecond: 1 }, Date.now(), 1)).rejects.toThrow(/Redis is not reachable/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await s.close();
  });

  it('refuses options it cannot work with', () => {
    expect(() => new RedisRateLimitStore({ clock: 'wall' as never })).toThrow(InvalidOptionError);
    expect(() => new RedisRateLimitStore({ commandTimeoutMs: -1 })).toThrow(InvalidOptionError);
    expect(() => new RedisRateLimitStore({ prefix: 3 as never })).toThrow(InvalidOptionError);
  });
});
