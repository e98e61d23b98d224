/**
 * The everything server as a real process over real pipes: malformed input gets the exact
 * JSON-RPC error and the server keeps answering; stdout carries nothing but JSON-RPC; the
 * process exits cleanly on end of stdin and on SIGTERM.
 */
import { ONLY_THE_BANNER } from './support/banner';
import { RawStdioChild, type Json } from './support/raw-stdio-child';

describe('everything server over stdio: hostile input', () => {
  let child: RawStdioChild;
  let nextId = 1;

  beforeAll(async () => {
    child = new RawStdioChild();
    await child.initialize('2025-06-18');
  });
  afterAll(() => child.kill());

  const cases: [string, string, Json][] = [
    ['unparsable JSON', '{"jsonrpc":"2.0","id":1,', { id: null, error: { code: -32700 } }],
    ['a JSON array of garbage on a non-batching revision', '[1,2]', { id: null, error: { code: -32600 } }],
    ['a bare string', '"ping"', { id: null, error: { code: -32600 } }],
    ['missing jsonrpc', '{"id":"a1","method":"ping"}', { id: 'a1', error: { code: -32600 } }],
    ['wrong jsonrpc version', '{"jsonrpc":"1.0","id":"a2","method":"ping"}', { id: 'a2', error: { code: -32600 } }],
    ['non-string method', '{"jsonrpc":"2.0","id":"a3","method":42}', { id: 'a3', error: { code: -32600 } }],
    ['null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', { id: null, error: { code: -32600 } }],
    [
      'unknown method',
      '{"jsonrpc":"2.0","id":"a4","method":"tools/destroy"}',
      { id: 'a4', error: { code: -32601, message: 'Method not found: tools/destroy' } },
    ],
    ['bad params (not an object)', '{"jsonrpc":"2.0","id":"a5","method":"tools/call","params":"add"}', { id: 'a5', error: { code: -32602 } }],
    [
      'bad params (unknown tool)',
      '{"jsonrpc":"2.0","id":"a6","method":"tools/call","params":{"name":"nope"}}',
      { id: 'a6', error: { code: -32602, message: 'Unknown tool: nope' } },
    ],
    ['bad params (missing uri)', '{"jsonrpc":"2.0","id":"a7","method":"resources/read","params":{}}', { id: 'a7', error: { code: -32602 } }],
    ['invalid cursor', '{"jsonrpc":"2.0","id":"a8","method":"tools/list","params":{"cursor":"xyz"}}', { id: 'a8', error: { code: -32602 } }],
    ['unknown resource', '{"jsonrpc":"2.0","id":"a9","method":"resources/read","params":{"uri":"test://nope"}}', { id: 'a9', error: { code: -32002 } }],
  ];

  it.each(cases)('answers %s exactly once, precisely, and keeps serving', async (_name, line, expected) => {
    const before = child.lines.length;
    child.write(line + '\n');
    const pingId = `ping-${nextId++}`;
    await child.request(pingId, 'ping');
    const answers = child.messages.slice(before);
    // The error, then the ping result: one response for the bad input, nothing else.
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ jsonrpc: '2.0', ...expected });
    expect(typeof (answers[0].error as Json).message).toBe('string');
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: pingId, result: {} });
  });

  it('ignores notifications and stray responses without answering', async () => {
    const before = child.lines.length;
    child.write('{"jsonrpc":"2.0","method":"notifications/unknown"}\n{"jsonrpc":"2.0","id":999,"result":{}}\n\n');
    await child.request('after-stray', 'ping');
    expect(child.messages.slice(before)).toEqual([{ jsonrpc: '2.0', id: 'after-stray', result: {} }]);
  });

  it('rejects an arguments type error as a tool error naming the field', async () => {
    const response = await child.request('bad-add', 'tools/call', { name: 'add', arguments: { a: 'one', b: 2 } });
    expect(response.result).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: `a` must be a number (got string "one")' }],
      isError: true,
    });
  });

  it('answers a message over the 16 MiB cap with a clear error and keeps serving', async () => {
    const before = child.lines.length;
    child.write(JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: 'ping', params: { pad: 'x'.repeat(17 * 1024 * 1024) } }) + '\n');
    await child.request('after-huge', 'ping');
    expect(child.messages.slice(before)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Message too large: the limit is ${16 * 1024 * 1024} bytes; the message was discarded` },
      },
      { jsonrpc: '2.0', id: 'after-huge', result: {} },
    ]);
  });

  it('says on stderr, in one line, that it serves MCP over stdio and how to try it', () => {
    expect(child.stderr).toMatch(ONLY_THE_BANNER);
    expect(child.stderr).toContain('npx typemcp list -- node apps/everything/dist/main.js --transport stdio');
  });

  it('has written nothing but JSON-RPC 2.0 lines to stdout', () => {
    expect(child.lines.length).toBeGreaterThan(cases.length);
    for (const line of child.lines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
  });
});

describe('everything server over stdio: shutdown', () => {
  it('answers in-flight work, then exits 0 when stdin closes', async () => {
    const child = new RawStdioChild();
    try {
      await child.initialize();
      child.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'test_slow_operation', arguments: { durationMs: 300 } } });
      child.proc.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.messages.find((m) => m.id === 'slow')).toEqual({
        jsonrpc: '2.0',
        id: 'slow',
        result: { content: [{ type: 'text', text: 'Waited 300 ms' }] },
      });
    } finally {
      child.kill();
    }
  });

  it('handles SIGTERM the same way', async () => {
    const child = new RawStdioChild();
    try {
      await child.initialize();
      child.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'test_slow_operation', arguments: { durationMs: 200 } } });
      await new Promise((r) => setTimeout(r, 50));
      child.proc.kill('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.messages.find((m) => m.id === 'slow')).toMatchObject({ result: { content: [{ text: 'Waited 200 ms' }] } });
    } finally {
      child.kill();
    }
  });
});
