/**
 * A session id alone gives nothing on another instance: three instances on one Redis with bearer
 * authentication, alice opens a session on the first; bob (another valid token) using her
 * Mcp-Session-Id on any instance, whether it holds a replica of the session or must rebuild it
 * from Redis, gets exactly what a single instance answers for another principal's session (404,
 * as packages/http/src/security/same-principal.ts decides), and alice's session goes on working
 * everywhere. Needs `npx tsc -b` first (npm test builds).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startInstance, type Instance } from './support/cluster';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

const TIMEOUT = { timeout: 15_000 };
const textOf = (r: unknown) => ((r as { content: { text: string }[] }).content[0]?.text ?? '') as string;

interface Answer {
  status: number;
  body: string;
}

describeWithRedis('a session id alone gives nothing on another instance', redisUnavailable(), () => {
  const prefix = testPrefix('principal');
  let instances: Instance[] = [];

  beforeAll(async () => {
    instances = await Promise.all([0, 1, 2].map(() => startInstance(REDIS_URL, prefix, { auth: true })));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGTERM')));
    await deleteKeys(prefix);
  });

  /** One request of `token`'s holder on instance `at` with session `sid` (the SDK is not used: it would not reuse another's id). */
  async function probe(at: number, token: string, sid: string, method: 'POST' | 'GET' | 'DELETE'): Promise<Answer> {
    const res = await fetch(`${instances[at].url}/mcp`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
      },
      body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } }) : undefined,
    });
    return { status: res.status, body: await res.text() };
  }

  it("bob gets 404 with alice's session id on every instance, the same answer one instance gives; alice's session goes on", async () => {
    // alice's SDK client; `target` picks the instance each of its requests goes to.
    let target = 0;
    const client = new Client({ name: 'alice', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${instances[0].url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer token-alice' } },
      fetch: (url, init) => {
        const u = new URL(url instanceof Request ? url.url : url);
        return fetch(new URL(`${u.pathname}${u.search}`, instances[target].url), init);
      },
    });
    await client.connect(transport);
    const sid = transport.sessionId!;
    expect(sid).toMatch(/^[\x21-\x7e]+$/);
    const whoami = async (at: number) => {
      target = at;
      return JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }, undefined, TIMEOUT))) as unknown;
    };
    expect(await whoami(0)).toEqual({ sub: 'alice' });

    // The single-instance answer: bob on the instance where alice's session was created.
    const local = await probe(0, 'token-bob', sid, 'POST');
    expect(local.status).toBe(404);
    const unknownId = await probe(0, 'token-alice', `${sid}-nope`, 'POST');
    // Another principal's session is indistinguishable from one that does not exist.
    expect(local).toEqual(unknownId);
    expect(JSON.parse(local.body)).toEqual(expect.objectContaining({ jsonrpc: '2.0', error: expect.objectContaining({ code: expect.any(Number) }) }));

    // Instances 2 and 3 have never seen the session: they rebuild it from Redis and refuse bob.
    for (const at of [1, 2]) {
      expect(await probe(at, 'token-bob', sid, 'POST')).toEqual(local);
      expect((await probe(at, 'token-bob', sid, 'GET')).status).toBe(404);
      expect((await probe(at, 'token-bob', sid, 'DELETE')).status).toBe(404);
    }

    // alice on instance 2: it holds a replica now; bob is refused there too, and on instance 1.
    expect(await whoami(1)).toEqual({ sub: 'alice' });
    for (const at of [1, 0]) {
      expect(await probe(at, 'token-bob', sid, 'POST')).toEqual(local);
      expect((await probe(at, 'token-bob', sid, 'DELETE')).status).toBe(404);
    }

    // bob and alice at once on instance 3, which has no replica: they share one read of the
    // record, and bob's refusal must not fail alice's request (it did, before each request was
    // checked on its own: about one run in two).
    target = 2;
    const [bob1, alice, bob2] = await Promise.all([
      probe(2, 'token-bob', sid, 'POST'),
      client.callTool({ name: 'whoami', arguments: {} }, undefined, TIMEOUT).then((r) => JSON.parse(textOf(r)) as unknown),
      probe(2, 'token-bob', sid, 'POST'),
    ]);
    expect([bob1, bob2]).toEqual([local, local]);
    expect(alice).toEqual({ sub: 'alice' });

    // Nothing bob did ended or changed the session: alice goes on, on every instance.
    for (const at of [0, 1, 2]) expect(await whoami(at)).toEqual({ sub: 'alice' });
    target = 0;
    expect((await client.listTools(undefined, TIMEOUT)).tools.map((t) => t.name)).toContain('whoami');
    // And alice's own DELETE does end it, everywhere.
    await transport.terminateSession();
    for (const at of [0, 1, 2]) expect((await probe(at, 'token-alice', sid, 'POST')).status).toBe(404);
    await client.close();
  }, 60_000);
});
