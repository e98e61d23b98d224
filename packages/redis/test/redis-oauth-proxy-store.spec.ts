/**
 * RedisOAuthProxyStore on a real Redis (REDIS_URL; without it the test fails): records with their
 * TTL, `take` once under 50 concurrent takers on two connections (two instances), `add` once
 * under 50 concurrent adders (JWT-id replay detection), and nothing left once taken or expired.
 */
import { redisState, type RedisState } from '../src/index';
import { deleteKeys, REDIS_URL, testPrefix } from './support/redis-env';

const prefix = testPrefix('oauth-store');
let a: RedisState;
let b: RedisState;

beforeAll(async () => {
  a = redisState({ url: REDIS_URL, prefix });
  b = redisState({ url: REDIS_URL, prefix });
  await Promise.all([a.start(() => {}), b.start(() => {})]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await deleteKeys(prefix);
});

it('keeps a record for its TTL, under a key of its own slot', async () => {
  const store = a.oauthProxyStore();
  await store.set('grant', 'g1', { subject: 'alice', scopes: ['x'] }, 150);
  expect(await b.oauthProxyStore().get('grant', 'g1')).toEqual({ subject: 'alice', scopes: ['x'] });
  expect(store.keyOf('grant', 'g1')).toBe(`${prefix}:oa:grant:{g1}`);
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(await store.get('grant', 'g1')).toBeUndefined();
});

it('takes a record once, whichever instance asks: one of 50 concurrent takers gets it', async () => {
  await a.oauthProxyStore().set('refresh', 'r1', { gid: 'g' }, 60_000);
  const stores = [a.oauthProxyStore(), b.oauthProxyStore()];
  const taken = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2].take('refresh', 'r1')));
  expect(taken.filter((t) => t !== undefined)).toEqual([{ gid: 'g' }]);
  expect(await a.oauthProxyStore().get('refresh', 'r1')).toBeUndefined();
});

it('adds a JWT id once: one of 50 concurrent adders wins, until it expires', async () => {
  const stores = [a.oauthProxyStore(), b.oauthProxyStore()];
  const added = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2].add('jti', 'idp|j1', { at: i }, 200)));
  expect(added.filter(Boolean)).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await a.oauthProxyStore().add('jti', 'idp|j1', { at: 0 }, 200)).toBe(true);
  await a.oauthProxyStore().delete('jti', 'idp|j1');
  expect(await b.oauthProxyStore().get('jti', 'idp|j1')).toBeUndefined();
});
