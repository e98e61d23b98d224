import { PassThrough } from 'node:stream';
import { ErrorCode, ProtocolServer, serveStdio, type JsonObject } from '@typemcp/protocol';
import { LineDecoder } from '../src/transport/line-decoder';

describe('LineDecoder', () => {
  function decoder(max = 1024) {
    const lines: string[] = [];
    const oversized: number[] = [];
    const d = new LineDecoder(max, { onLine: (l) => lines.push(l), onOversized: (n) => oversized.push(n) });
    return { d, lines, oversized };
  }

  it('splits lines across and within chunks, strips CR, skips empty lines, keeps UTF-8 intact', () => {
    const { d, lines } = decoder();
    const text = Buffer.from('{"a":"é"}\r\n\n{"b":2}\n{"c"');
    // Split inside the two-byte "é" to prove bytes are joined before decoding.
    const cut = text.indexOf(0xa9);
    d.push(text.subarray(0, cut));
    d.push(text.subarray(cut));
    d.push(Buffer.from(':3}\n'));
    expect(lines).toEqual(['{"a":"é"}', '{"b":2}', '{"c":3}']);
    expect(d.pendingBytes).toBe(0);
  });

  it('joins a line made of many chunks with one copy (linear time, not quadratic)', () => {
    const { d, lines } = decoder(64 * 1024 * 1024);
    const concat = jest.spyOn(Buffer, 'concat');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 128; i++) d.push(chunk);
    d.push(Buffer.from('\n'));
    expect(concat).toHaveBeenCalledTimes(1);
    expect(lines[0]).toHaveLength(128 * 64 * 1024);
    concat.mockRestore();
  });

  it('discards an oversized line up to its newline, reports it once, then goes on', () => {
    const { d, lines, oversized } = decoder(10);
    d.push(Buffer.from('0123456789'));
    d.push(Buffer.from('abcdef'));
    d.push(Buffer.from('ghij\n{"ok":1}\n'));
    d.push(Buffer.from('x'.repeat(20) + '\n'));
    expect(oversized).toEqual([10, 10]);
    expect(lines).toEqual(['{"ok":1}']);
  });
});

describe('serveStdio', () => {
  function start(options: { maxMessageBytes?: number; graceMs?: number; progressGapMs?: number } = {}) {
    const server = new ProtocolServer({ serverInfo: { name: 's', version: '1' }, onError: () => undefined });
    server.registry.addTool({ name: 'wait', description: 'd', inputSchema: { type: 'object' } }, async (args, ctx) => {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, Number(args.ms));
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)));
      });
      return { content: [{ type: 'text', text: `waited ${String(args.ms)}` }] };
    });
    server.registry.addTool({ name: 'async', description: 'd', inputSchema: { type: 'object' } }, async () => ({ content: [] }));
    // Like the conformance fixture: the last progress report comes right before the result.
    server.registry.addTool({ name: 'progress', description: 'd', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      ctx.progress(1, 2);
      await new Promise((r) => setTimeout(r, 5));
      ctx.progress(2, 2);
      return { content: [] };
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const messages: JsonObject[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        messages.push(JSON.parse(buffered.slice(0, nl)) as JsonObject);
        buffered = buffered.slice(nl + 1);
      }
    });
    const connection = serveStdio(server, { input, output, ...options });
    const write = (value: unknown) => input.write(JSON.stringify(value) + '\n');
    const until = async (n: number) => {
      for (let i = 0; i < 200 && messages.length < n; i++) await new Promise((r) => setTimeout(r, 5));
      return messages;
    };
    write({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    return { connection, input, output, messages, write, until };
  }

  it('answers oversized messages with a clear error and keeps serving', async () => {
    const { input, write, until } = start({ maxMessageBytes: 1000 });
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } }) + '\n');
    write({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const messages = await until(3);
    expect(messages[1]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: 'Message too large: the limit is 1000 bytes; the message was discarded' },
    });
    expect(messages[2]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it.each([
    ['synchronous', (i: number) => ({ jsonrpc: '2.0', id: i, method: 'ping' })],
    ['asynchronous', (i: number) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'async' } })],
  ])('writes the %s responses to one input chunk with one write, newline-terminated', async (_kind, request) => {
    const { input, output, until } = start();
    await until(1);
    const writes: string[] = [];
    output.on('data', (c: Buffer) => writes.push(c.toString()));
    const ids = Array.from({ length: 50 }, (_, i) => i + 1);
    input.write(ids.map((i) => JSON.stringify(request(i)) + '\n').join(''));
    const messages = await until(51);
    expect(messages.slice(1).map((m) => m.id)).toEqual(ids);
    expect(writes).toHaveLength(1);
    expect(writes[0].endsWith('\n')).toBe(true);
  });

  it('on end of input answers in-flight work, then closes', async () => {
    const { connection, input, write, until } = start({ graceMs: 2000 });
    await until(1);
    write({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: { ms: 50 } } });
    input.end();
    await connection.closed;
    const messages = await until(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'waited 50' }] } });
  });

  it('aborts work that outlives the grace period and answers it with an error', async () => {
    const { connection, input, write, until } = start({ graceMs: 30 });
    await until(1);
    write({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: { ms: 60000 } } });
    input.end();
    const started = Date.now();
    await connection.closed;
    expect(Date.now() - started).toBeLessThan(2000);
    const messages = await until(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.ConnectionClosed, message: 'Server is shutting down' } });
    expect(messages).toHaveLength(2);
  });

  describe('a response right after a progress notification of its request', () => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'progress', _meta: { progressToken: `t${id}` } } });
    const progressOf = (m: JsonObject) => (m.method === 'notifications/progress' ? (m.params as JsonObject).progress : undefined);

    async function record(progressGapMs?: number) {
      const s = start({ progressGapMs });
      await s.until(1);
      const writes: { at: number; messages: JsonObject[] }[] = [];
      s.output.on('data', (c: Buffer) =>
        writes.push({
          at: performance.now(),
          messages: c
            .toString()
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as JsonObject),
        }),
      );
      return { ...s, writes };
    }

    it('is written in a later write, the gap after the progress (SDK clients drop a progress read with its response)', async () => {
      const { write, until, writes } = await record(40);
      write(call(1));
      await until(4);
      const progressWrite = writes.findIndex((w) => w.messages.some((m) => progressOf(m) === 2));
      const responseWrite = writes.findIndex((w) => w.messages.some((m) => m.id === 1));
      expect(progressWrite).toBeGreaterThanOrEqual(0);
      expect(responseWrite).toBeGreaterThan(progressWrite);
      // Timers may fire up to a millisecond early (the loop's clock is read once per turn).
      expect(writes[responseWrite].at - writes[progressWrite].at).toBeGreaterThanOrEqual(38);
      expect(writes[responseWrite].messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [] } }]);
    });

    it('keeps the order: what is sent while it waits is written after it', async () => {
      const { input, write, until, writes, messages } = await record(40);
      write(call(1));
      for (let i = 0; i < 200 && !writes.some((w) => w.messages.some((m) => progressOf(m) === 2)); i++) await new Promise((r) => setTimeout(r, 1));
      input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
      await until(5);
      expect(messages.slice(1).map((m) => progressOf(m) ?? m.id)).toEqual([1, 2, 1, 2]);
      expect(writes.at(-1)!.messages.map((m) => m.id)).toEqual([1, 2]);
    });

    it('waits for each request that reported progress, and goes straight out when progressGapMs is 0', async () => {
      const paced = await record(30);
      paced.input.write(JSON.stringify(call(1)) + '\n' + JSON.stringify(call(2)) + '\n');
      const messages = await paced.until(7);
      expect(
        messages
          .slice(1)
          .filter((m) => 'id' in m)
          .map((m) => m.id),
      ).toEqual([1, 2]);
      for (const id of [1, 2]) {
        const w = paced.writes.find((x) => x.messages.some((m) => m.id === id))!;
        expect(w.messages.filter((m) => progressOf(m) !== undefined && (m.params as JsonObject).progressToken === `t${id}`)).toEqual([]);
      }

      const unpaced = await record(0);
      unpaced.write(call(1));
      await unpaced.until(4);
      expect(unpaced.writes.at(-1)!.messages.map((m) => progressOf(m) ?? m.id)).toEqual([2, 1]);
    });
  });
});
