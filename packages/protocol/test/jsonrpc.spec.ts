import { ErrorCode, type JsonObject } from '@typemcp/protocol';
import { serverAndPeer, tick } from './support/memory-peer';

describe('JSON-RPC envelope', () => {
  async function ready() {
    const ctx = serverAndPeer();
    ctx.server.registry.addTool({ name: 'echo', description: 'd', inputSchema: { type: 'object' } }, (args) => ({
      content: [{ type: 'text', text: JSON.stringify(args) }],
    }));
    await ctx.peer.initialize('2025-06-18');
    ctx.peer.received.length = 0;
    return ctx;
  }

  const cases: [string, string, JsonObject][] = [
    ['unparsable JSON', '{"jsonrpc":"2.0",', { id: null, error: { code: ErrorCode.ParseError } }],
    ['a string', '"hello"', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ['a number', '42', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ['null', 'null', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ['missing jsonrpc', '{"id":1,"method":"ping"}', { id: 1, error: { code: ErrorCode.InvalidRequest } }],
    ['wrong jsonrpc', '{"jsonrpc":"1.0","id":2,"method":"ping"}', { id: 2, error: { code: ErrorCode.InvalidRequest } }],
    ['non-string method', '{"jsonrpc":"2.0","id":3,"method":7}', { id: 3, error: { code: ErrorCode.InvalidRequest } }],
    ['null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ['fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ['object id', '{"jsonrpc":"2.0","id":{},"method":"ping"}', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    [
      'unknown method',
      '{"jsonrpc":"2.0","id":"u","method":"no/such"}',
      { id: 'u', error: { code: ErrorCode.MethodNotFound, message: 'Method not found: no/such' } },
    ],
    ['array params', '{"jsonrpc":"2.0","id":5,"method":"ping","params":[1]}', { id: 5, error: { code: ErrorCode.InvalidParams } }],
    ['tools/call without name', '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{}}', { id: 6, error: { code: ErrorCode.InvalidParams } }],
    [
      'tools/call with array arguments',
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":[]}}',
      { id: 7, error: { code: ErrorCode.InvalidParams } },
    ],
    [
      'params nested 65 levels deep',
      `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":${'['.repeat(64)}${']'.repeat(64)}}}`,
      { id: 10, error: { code: ErrorCode.InvalidParams, message: 'Invalid params: nested deeper than 64 levels' } },
    ],
    [
      'a batch on 2025-06-18',
      '[{"jsonrpc":"2.0","id":8,"method":"ping"}]',
      { id: null, error: { code: ErrorCode.InvalidRequest, message: 'JSON-RPC batches are not supported in protocol revision 2025-06-18' } },
    ],
  ];

  it.each(cases)('answers %s precisely and keeps serving', async (_name, text, expected) => {
    const { peer } = await ready();
    peer.sendText(text);
    await tick();
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatchObject({ jsonrpc: '2.0', ...expected });
    expect(typeof (peer.received[0].error as JsonObject).message).toBe('string');
    expect((await peer.request('ping')).result).toEqual({});
  });

  it.each([
    ['0', '0'],
    ['-7', '-7'],
    ['9007199254740991', '9007199254740991'],
    ['"a \\"quoted\\" \\\\ id \\u00e9"', '"a \\"quoted\\" \\\\ id é"'],
  ])('writes the id %s of a result exactly as JSON (%s)', async (id, written) => {
    const { peer } = await ready();
    peer.sendText(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    await tick();
    expect(peer.frames.at(-1)).toBe(`{"jsonrpc":"2.0","id":${written},"result":{}}`);
    expect(peer.received[0].id).toBe(JSON.parse(id));
  });

  it('never answers notifications, unknown notifications or responses to ids it never sent', async () => {
    const { peer } = await ready();
    peer.sendText('{"jsonrpc":"2.0","method":"notifications/whatever","params":{"x":1}}');
    peer.sendText('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope"}}');
    peer.sendText('{"jsonrpc":"2.0","id":12345,"result":{}}');
    peer.sendText('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}');
    await tick();
    expect(peer.received).toEqual([]);
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('refuses a request id that is still in flight and answers the first one once', async () => {
    const { server, peer } = await ready();
    let release!: () => void;
    server.registry.addTool(
      { name: 'wait', description: 'd', inputSchema: { type: 'object' } },
      () => new Promise((resolve) => (release = () => resolve({ content: [] }))),
    );
    peer.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/call', params: { name: 'wait' } });
    const second = await peer.request('ping', undefined, 'dup');
    expect(second.error?.code).toBe(ErrorCode.InvalidRequest);
    release();
    await tick();
    const answers = peer.received.filter((m) => m.id === 'dup');
    expect(answers).toHaveLength(2);
    expect(answers[1].result).toEqual({ content: [] });
  });

  it('accepts params nested exactly 64 levels deep', async () => {
    const { peer } = await ready();
    const args = `${'['.repeat(62)}${']'.repeat(62)}`;
    peer.sendText(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"x":${args}}}}`);
    expect((await peer.waitFor((m) => m.id === 11)).result).toBeDefined();
  });

  it('treats "1" and 1 as different ids', async () => {
    const { peer } = await ready();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    peer.send({ jsonrpc: '2.0', id: '1', method: 'ping' });
    await tick();
    expect(peer.received.map((m) => m.id)).toEqual([1, '1']);
  });

  it('masks internal errors as -32603 and reports them', async () => {
    const errors: unknown[] = [];
    const { server, peer } = serverAndPeer({ onError: (e) => errors.push(e) });
    server.setMethodHandler('boom', () => {
      throw new Error('secret database password in stack');
    });
    await peer.initialize();
    const response = await peer.request('boom');
    expect(response.error).toEqual({ code: ErrorCode.InternalError, message: 'Internal error' });
    expect(errors).toHaveLength(1);
  });

  describe('batches (2025-03-26 only)', () => {
    async function batchPeer(revision = '2025-03-26') {
      const ctx = serverAndPeer();
      ctx.server.registry.addTool({ name: 'slow', description: 'd', inputSchema: { type: 'object' } }, async () => {
        await new Promise((r) => setTimeout(r, 20));
        return { content: [{ type: 'text', text: 'late' }] };
      });
      await ctx.peer.initialize(revision);
      ctx.peer.received.length = 0;
      ctx.peer.frames.length = 0;
      return ctx;
    }

    it('answers a batch with one array holding every response', async () => {
      const { peer } = await batchPeer();
      peer.send([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } },
        { jsonrpc: '2.0', method: 'notifications/whatever' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', id: 3, method: 'nope' },
        { foo: 'bar' },
      ]);
      await new Promise((r) => setTimeout(r, 50));
      expect(peer.frames).toHaveLength(1);
      const batch = JSON.parse(peer.frames[0]) as JsonObject[];
      expect(batch).toHaveLength(4);
      expect(batch).toEqual(
        expect.arrayContaining([
          { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'late' }] } },
          { jsonrpc: '2.0', id: 2, result: {} },
          expect.objectContaining({ id: 3, error: expect.objectContaining({ code: ErrorCode.MethodNotFound }) }),
          expect.objectContaining({ id: null, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) }),
        ]),
      );
    });

    it('sends nothing for a batch of notifications', async () => {
      const { peer } = await batchPeer();
      peer.send([
        { jsonrpc: '2.0', method: 'notifications/a' },
        { jsonrpc: '2.0', method: 'notifications/b' },
      ]);
      await tick();
      expect(peer.received).toEqual([]);
    });

    it('refuses an empty batch and initialize inside a batch', async () => {
      const { peer } = await batchPeer();
      peer.send([]);
      peer.send([{ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-03-26' } }]);
      await tick();
      expect(peer.frames.map((f) => JSON.parse(f))).toEqual([
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) }),
        [expect.objectContaining({ id: 9, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) })],
      ]);
    });

    it.each(['2024-11-05', '2025-06-18', '2025-11-25'])('refuses batches on %s', async (revision) => {
      const { peer } = await batchPeer(revision);
      peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
      await tick();
      expect(peer.received).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) })]);
    });

    it('refuses batches before initialize', async () => {
      const { peer } = serverAndPeer();
      peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
      await tick();
      expect(peer.received[0]).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    });
  });
});
