/**
 * RedisState against a real Redis that stops answering: Redis is reached through a forwarder
 * that can stop passing commands on (nothing slows the shared Redis down). node-redis's own
 * command timeout only covers a command not yet written, so without a timer of ours a request
 * needing Redis would wait forever; with it, it fails after commandTimeoutMs with a message that
 * says so.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RedisState } from '../src/index';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

describeWithRedis('RedisState with a Redis that stops answering', redisUnavailable(), () => {
  const prefix = testPrefix('state');
  let server: Server;
  const sockets = new Set<Socket>();
  let swallow = false;

  beforeAll(async () => {
    const target = new URL(REDIS_URL);
    server = createServer((socket) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
      }
      // While `swallow` is set, what the client sends never reaches Redis: no answer comes.
      socket.on('data', (chunk) => swallow || upstream.write(chunk));
      upstream.pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deleteKeys(prefix);
  });

  it('a command not answered within commandTimeoutMs fails with a message naming the limit', async () => {
    const url = new URL(REDIS_URL);
    url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const state = new RedisState({ url: url.toString(), prefix, commandTimeoutMs: 300 });
    try {
      expect(await state.start(() => undefined)).toBeGreaterThan(0);
      expect(await state.loadSession('none')).toBeUndefined();
      swallow = true;
      const started = Date.now();
      await expect(state.loadSession('none')).rejects.toThrow(/^Redis did not answer within 300 ms \(commandTimeoutMs\)$/);
      await expect(state.saveSession('s', '{}', 60_000)).rejects.toThrow(/did not answer within 300 ms/);
      // Well before any test timeout, however loaded the machine.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await Promise.race([state.close(), new Promise((r) => setTimeout(r, 1000))]);
    }
  }, 30_000);
});
