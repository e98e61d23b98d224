/**
 * rateLimit() over a RedisRateLimitStore: two servers (as two instances would be) share one
 * bucket per principal, so a caller spread over both gets its capacity once, not once per
 * instance; another principal keeps its own bucket.
 */
import { createServer, McpService, rateLimit, Tool, type TypeMcpServer } from '@typemcp/core';
import { ErrorCode } from '@typemcp/protocol';
import { RedisRateLimitStore } from '@typemcp/redis';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

describeWithRedis('rateLimit() with a RedisRateLimitStore shared by two servers', redisUnavailable(), () => {
  const prefix = testPrefix('ratelimit-shared');
  const stores: RedisRateLimitStore[] = [];
  const servers: TypeMcpServer[] = [];
  const clients: TestClient[] = [];
  const calls: string[] = [];

  @McpService()
  class Echo {
    @Tool({ description: 'Echoes its instance' })
    echo() {
      calls.push('echo');
      return 'ok';
    }
  }

  const instance = () => {
    const store = new RedisRateLimitStore({ url: REDIS_URL, prefix, commandTimeoutMs: 5000 });
    stores.push(store);
    const server = createServer({ name: 'limited', version: '1', services: [Echo], interceptors: [rateLimit({ capacity: 3, refillPerSecond: 0.001, store })] });
    servers.push(server);
    return server;
  };
  const client = async (server: TypeMcpServer, sub: string) => {
    const c = await createTestClient({ server, principal: { sub }, revision: '2025-11-25' });
    clients.push(c);
    return c;
  };

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(stores.map((s) => s.close()));
    await deleteKeys(prefix);
  });

  it("gives a principal its capacity once across both servers, refuses the rest with -32004, and keeps others' buckets apart", async () => {
    const [a, b] = [instance(), instance()];
    const [aliceOnA, aliceOnB, bobOnB] = [await client(a, 'alice'), await client(b, 'alice'), await client(b, 'bob')];
    expect(textOf(await aliceOnA.callTool('echo', {}))).toBe('ok');
    expect(textOf(await aliceOnB.callTool('echo', {}))).toBe('ok');
    expect(textOf(await aliceOnA.callTool('echo', {}))).toBe('ok');
    const refused = await aliceOnB.callTool('echo', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(JsonRpcError);
    expect(refused).toMatchObject({ code: ErrorCode.RateLimited, data: { code: 'TYPEMCP_RATE_LIMITED' } });
    expect((refused as JsonRpcError).data).toMatchObject({ retryAfterMs: expect.any(Number) });
    expect(textOf(await bobOnB.callTool('echo', {}))).toBe('ok');
    expect(calls).toHaveLength(4);
  });
});
