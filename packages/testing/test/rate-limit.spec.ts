/**
 * The rate-limit interceptor through real sessions (the testing kit's client on the engine), on
 * an injected clock so nothing depends on the machine's speed: a burst then a -32004 refusal
 * carrying `data.retryAfterMs` (the method is not called), refill, 'global' versus 'tool'
 * scope, per-principal and per-session buckets, class and method `@UseInterceptors`, resources
 * and prompts refused the same way, a store whose `take` is asynchronous (as a Redis one is),
 * and bad options.
 */
import { IsString } from 'class-validator';
import {
  createServer,
  ErrorCode,
  getMetadataStorage,
  McpService,
  MemoryRateLimitStore,
  Prompt,
  rateLimit,
  Resource,
  Tool,
  UseInterceptors,
  type RateLimitOptions,
  type RateLimitStore,
  type TypeMcpServer,
} from '@typemcp/core';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';

const open: TestClient[] = [];
const servers: TypeMcpServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
beforeEach(() => getMetadataStorage().reset());

/** A clock the test moves. */
const clock = { now: 5_000_000 };
const limit = (options: Omit<RateLimitOptions, 'clock'>) => rateLimit({ ...options, clock: () => clock.now });

class Args {
  @IsString() text!: string;
}

/** Two tools, a resource and a prompt, counting the calls that reached the method. */
function declareService(calls: string[]) {
  @McpService()
  class Service {
    @Tool({ description: 'Echoes' })
    echo(args: Args) {
      calls.push(`echo ${args.text}`);
      return args.text;
    }

    @Tool({ description: 'Pings' })
    ping() {
      calls.push('ping');
      return 'pong';
    }

    @Resource('notes://all')
    all() {
      calls.push('read');
      return 'all notes';
    }

    @Prompt({ description: 'Greets' })
    greet() {
      calls.push('greet');
      return 'hello';
    }
  }
  return Service;
}

async function serverWith(options: Parameters<typeof createServer>[0]): Promise<TypeMcpServer> {
  const server = createServer(options);
  servers.push(server);
  return server;
}

async function clientOf(server: TypeMcpServer, principal?: unknown): Promise<TestClient> {
  const client = await createTestClient({ server, principal, revision: '2025-11-25' });
  open.push(client);
  return client;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as JsonRpcError,
  );

describe('rateLimit() interceptor', () => {
  it('allows a burst of capacity, then refuses with -32004 and data.retryAfterMs without calling the method; the bucket refills', async () => {
    const calls: string[] = [];
    const server = await serverWith({
      name: 't',
      version: '1',
      services: [declareService(calls)],
      interceptors: [limit({ capacity: 2, refillPerSecond: 0.5 })],
    });
    const client = await clientOf(server, { sub: 'alice' });
    expect(textOf(await client.callTool('echo', { text: 'a' }))).toBe('a');
    expect(textOf(await client.callTool('echo', { text: 'b' }))).toBe('b');
    const error = await refusal(client.callTool('echo', { text: 'c' }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: ErrorCode.RateLimited,
      message: 'Rate limit exceeded; retry in 2000 ms',
      data: { code: 'TYPEMCP_RATE_LIMITED', retryAfterMs: 2000 },
    });
    expect(calls).toEqual(['echo a', 'echo b']);
    clock.now += 1999;
    expect(await refusal(client.callTool('echo', { text: 'd' }))).toMatchObject({ data: { retryAfterMs: 1 } });
    clock.now += 1;
    expect(textOf(await client.callTool('echo', { text: 'e' }))).toBe('e');
    expect(calls).toEqual(['echo a', 'echo b', 'echo e']);
  });

  it("'global' shares one bucket across tools; 'tool' gives each tool its own", async () => {
    const globalCalls: string[] = [];
    const global = await clientOf(
      await serverWith({ name: 'g', version: '1', services: [declareService(globalCalls)], interceptors: [limit({ capacity: 1, refillPerSecond: 1 })] }),
      'alice',
    );
    await global.callTool('ping');
    expect(await refusal(global.callTool('echo', { text: 'x' }))).toMatchObject({ code: -32004 });

    getMetadataStorage().reset();
    const toolCalls: string[] = [];
    const perTool = await clientOf(
      await serverWith({
        name: 'p',
        version: '1',
        services: [declareService(toolCalls)],
        interceptors: [limit({ capacity: 1, refillPerSecond: 1, scope: 'tool' })],
      }),
      'alice',
    );
    await perTool.callTool('ping');
    expect(textOf(await perTool.callTool('echo', { text: 'x' }))).toBe('x');
    expect(await refusal(perTool.callTool('ping'))).toMatchObject({ code: -32004 });
    expect(await refusal(perTool.callTool('echo', { text: 'y' }))).toMatchObject({ code: -32004 });
    expect(toolCalls).toEqual(['ping', 'echo x']);
  });

  it('gives each principal its own bucket (sub, id or clientId), and each session one when there is no principal', async () => {
    const calls: string[] = [];
    const server = await serverWith({ name: 't', version: '1', services: [declareService(calls)], interceptors: [limit({ capacity: 1, refillPerSecond: 1 })] });
    const alice = await clientOf(server, { sub: 'alice', roles: ['x'] });
    const aliceAgain = await clientOf(server, { sub: 'alice', roles: ['y'] });
    const bob = await clientOf(server, { clientId: 'bob-app' });
    await alice.callTool('ping');
    // The same principal on another session shares the bucket.
    expect(await refusal(aliceAgain.callTool('ping'))).toMatchObject({ code: -32004 });
    expect(textOf(await bob.callTool('ping'))).toBe('pong');
    const anonymous1 = await clientOf(server);
    const anonymous2 = await clientOf(server);
    await anonymous1.callTool('ping');
    expect(await refusal(anonymous1.callTool('ping'))).toMatchObject({ code: -32004 });
    expect(textOf(await anonymous2.callTool('ping'))).toBe('pong');
    expect(calls).toEqual(['ping', 'ping', 'ping', 'ping']);
  });

  it('applies per class and per method with @UseInterceptors, and refuses resources and prompts the same way', async () => {
    const calls: string[] = [];
    const classLimit = limit({ capacity: 2, refillPerSecond: 1, name: 'class' });
    const methodLimit = limit({ capacity: 1, refillPerSecond: 1, name: 'method' });

    @McpService()
    @UseInterceptors(classLimit)
    class Limited {
      @Tool({ description: 'Pings' })
      @UseInterceptors(methodLimit)
      ping() {
        calls.push('ping');
        return 'pong';
      }

      @Resource('notes://all')
      all() {
        calls.push('read');
        return 'all notes';
      }

      @Prompt({ description: 'Greets' })
      greet() {
        calls.push('greet');
        return 'hello';
      }
    }

    @McpService()
    class Free {
      @Tool({ description: 'Unlimited' })
      free() {
        calls.push('free');
        return 'ok';
      }
    }

    const client = await clientOf(await serverWith({ name: 't', version: '1', services: [Limited, Free] }), 'alice');
    await client.callTool('ping');
    // The method's own limit (capacity 1) refuses first, after the class's took its token.
    expect(await refusal(client.callTool('ping'))).toMatchObject({ code: -32004 });
    // The class bucket (capacity 2) is now empty for the resource and the prompt.
    expect(await refusal(client.readResource('notes://all'))).toMatchObject({ code: -32004, data: { code: 'TYPEMCP_RATE_LIMITED', retryAfterMs: 1000 } });
    expect(await refusal(client.getPrompt('greet'))).toMatchObject({ code: -32004 });
    for (let i = 0; i < 5; i++) expect(textOf(await client.callTool('free'))).toBe('ok');
    clock.now += 1000;
    expect((await client.readResource('notes://all')).contents[0]).toMatchObject({ text: 'all notes' });
    expect(calls).toEqual(['ping', 'free', 'free', 'free', 'free', 'free', 'read']);
  });

  it('works over a store whose take is asynchronous (the shape of a shared Redis store), and honours a custom key', async () => {
    const memory = new MemoryRateLimitStore();
    const keys: string[] = [];
    const remote: RateLimitStore = {
      take: async (key, rule, now, cost) => {
        keys.push(key);
        await new Promise((resolve) => setImmediate(resolve));
        return memory.take(key, rule, now, cost);
      },
    };
    const calls: string[] = [];
    const server = await serverWith({
      name: 't',
      version: '1',
      services: [declareService(calls)],
      interceptors: [limit({ capacity: 1, refillPerSecond: 1, store: remote, key: (call) => (call.name === 'ping' ? undefined : 'everyone') })],
    });
    const a = await clientOf(server, 'a');
    const b = await clientOf(server, 'b');
    await a.callTool('echo', { text: '1' });
    expect(await refusal(b.callTool('echo', { text: '2' }))).toMatchObject({ code: -32004 });
    for (let i = 0; i < 3; i++) await b.callTool('ping');
    expect(keys).toEqual(['mcp:everyone', 'mcp:everyone']);
    expect(calls).toEqual(['echo 1', 'ping', 'ping', 'ping']);
  });

  it.each([
    [{ capacity: 1, refillPerSecond: 1, scope: 'user' }, 'rateLimit.scope'],
    [{ capacity: 1, refillPerSecond: 1, key: 'sub' }, 'rateLimit.key'],
    [{ capacity: 1, refillPerSecond: 1, name: '' }, 'rateLimit.name'],
    [{ capacity: -1, refillPerSecond: 1 }, 'rateLimit.capacity'],
  ])('refuses bad options %j at once, naming %s', (options, option) => {
    expect(() => rateLimit(options as never)).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option }));
  });
});
