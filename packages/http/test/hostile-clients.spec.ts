/**
 * Clients that misbehave at the HTTP level, on raw sockets: uploads far over the body limit
 * (the client must read the 413, not a reset), bodies and headers that stop arriving (the
 * connection is cut within the configured timeouts), and SSE streams that must outlive them.
 */
import { InvalidOptionError } from '@typemcp/protocol';
import { serveHttp } from '@typemcp/http';
import { buildEngine, initialize, JSON_AND_SSE, post, serve, SseReader, type Served } from './support/http-fixture';
import { chunked, exchange, filler, head, statusOf } from './support/raw-socket';

const UPLOAD = 10_000_000;
const portOf = (s: Served) => s.listener.port;

describe('an upload over the 4 MiB limit', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(() => s.listener.close(0));

  it('is answered 413 with Content-Length, read by a client that keeps writing, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const outcome = await exchange(portOf(s), head('POST', '/mcp', portOf(s), { 'content-length': String(UPLOAD) }), filler(UPLOAD));
      expect([i, statusOf(outcome), outcome.error]).toEqual([i, 413, undefined]);
      expect(outcome.response).toContain('TYPEMCP_HTTP_PAYLOAD_TOO_LARGE');
      expect(outcome.response.toLowerCase()).toContain('connection: close');
      expect(outcome.sent).toBe(UPLOAD);
    }
    expect((await fetch(`${s.base}/health`)).status).toBe(200);
  }, 60_000);

  it('is answered 413 when chunked, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const outcome = await exchange(portOf(s), head('POST', '/mcp', portOf(s), { 'transfer-encoding': 'chunked' }), chunked(filler(UPLOAD)));
      expect([i, statusOf(outcome), outcome.error]).toEqual([i, 413, undefined]);
      expect(outcome.response).toContain('TYPEMCP_HTTP_PAYLOAD_TOO_LARGE');
    }
  }, 60_000);

  it('is answered 413 on the legacy /messages endpoint, every time, and the session keeps serving', async () => {
    const stream = new SseReader(await fetch(`${s.base}/sse`, { headers: { accept: 'text/event-stream' } }));
    const endpoint = (await stream.next())!.data!;
    for (let i = 0; i < 5; i++) {
      const outcome = await exchange(portOf(s), head('POST', endpoint, portOf(s), { 'content-length': String(UPLOAD) }), filler(UPLOAD));
      expect([i, statusOf(outcome), outcome.error]).toEqual([i, 413, undefined]);
    }
    const ok = await fetch(`${s.base}${endpoint}`, { method: 'POST', headers: JSON_AND_SSE, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
    expect(ok.status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    await stream.cancel();
  }, 60_000);

  it('stops discarding at oversizeDrainBytes and closes the connection', async () => {
    const capped = await serve({ oversizeDrainBytes: 1024 * 1024 });
    try {
      const outcome = await exchange(portOf(capped), head('POST', '/mcp', portOf(capped), { 'content-length': String(UPLOAD) }), filler(UPLOAD));
      expect(statusOf(outcome)).toBe(413);
      expect(outcome.sent).toBeLessThan(UPLOAD);
    } finally {
      await capped.listener.close(0);
    }
  }, 30_000);

  it('stops discarding after oversizeDrainMs when the upload stalls, and closes the connection', async () => {
    const timed = await serve({ oversizeDrainMs: 500 });
    try {
      const outcome = await exchange(portOf(timed), head('POST', '/mcp', portOf(timed), { 'content-length': String(UPLOAD) }), filler(1024 * 1024));
      expect([statusOf(outcome), outcome.error]).toEqual([413, undefined]);
      expect(outcome.ms).toBeGreaterThanOrEqual(450);
      expect(outcome.ms).toBeLessThan(2000);
    } finally {
      await timed.listener.close(0);
    }
  }, 10_000);
});

describe('requests that stop arriving', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ headersTimeoutMs: 1000, requestTimeoutMs: 1000 });
  });
  afterAll(() => s.listener.close(0));

  const expectCutInTime = (outcome: { ms: number; response: string }) => {
    expect(outcome.ms).toBeGreaterThanOrEqual(900);
    expect(outcome.ms).toBeLessThan(2500);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
  };

  it('closes a connection whose body stops short of its Content-Length', async () => {
    const outcome = await exchange(portOf(s), head('POST', '/mcp', portOf(s), { 'content-length': '1000' }), [Buffer.from('{"jsonrpc":')]);
    expectCutInTime(outcome);
    expect((await fetch(`${s.base}/health`)).status).toBe(200);
  }, 10_000);

  it('closes a connection whose chunked body never ends', async () => {
    const outcome = await exchange(
      portOf(s),
      head('POST', '/mcp', portOf(s), { 'transfer-encoding': 'chunked' }),
      chunked([Buffer.from('{"jsonrpc":')], false),
    );
    expectCutInTime(outcome);
  }, 10_000);

  it('closes a connection whose headers never end', async () => {
    const outcome = await exchange(portOf(s), `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${portOf(s)}\r\n`);
    expectCutInTime(outcome);
  }, 10_000);

  it('keeps SSE streams open far longer than the timeouts: GET /mcp, a POST answered on SSE, and GET /sse', async () => {
    const streams = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 500, keepAliveMs: 100 });
    try {
      const { sessionId } = await initialize(streams.url);
      const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const standalone = new SseReader(await fetch(streams.url, { headers: { accept: 'text/event-stream', ...session } }));
      const legacy = new SseReader(await fetch(`${streams.base}/sse`, { headers: { accept: 'text/event-stream' } }));
      const slow = await post(streams.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow', arguments: { ms: 2000 } } }, session);
      expect(slow.status).toBe(200);
      const answer = new SseReader(slow);
      let result;
      while (!(result = await answer.nextMessage(3000))?.result);
      expect(result).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'slept 2000' }] } });
      // Pings buffered so far are read first; the stream must still deliver fresh ones after them.
      for (const reader of [standalone, legacy]) {
        const until = Date.now() + 300;
        while (Date.now() < until) expect(await reader.next(1000)).toBeDefined();
        await reader.cancel();
      }
    } finally {
      await streams.listener.close(0);
    }
  }, 15_000);
});

describe('option checks', () => {
  it.each([
    ['headersTimeoutMs', -1],
    ['requestTimeoutMs', 1.5],
    ['oversizeDrainBytes', Number.NaN],
    ['oversizeDrainMs', '5000'],
  ])('refuses %s = %p with TYPEMCP_ERR_INVALID_OPTION', async (option, value) => {
    const error = await serveHttp(buildEngine(), { port: 0, [option]: value }).then(
      (listener) => (void listener.close(0), undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option, message: expect.stringContaining(`Invalid option "${option}"`) });
  });

  it('refuses a headers timeout longer than the request timeout', async () => {
    await expect(serveHttp(buildEngine(), { port: 0, headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toMatchObject({
      code: 'TYPEMCP_ERR_INVALID_OPTION',
      option: 'headersTimeoutMs',
    });
  });
});
