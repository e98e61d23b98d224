/**
 * A number JSON cannot hold, over every transport: `JSON.parse` reads `1e400` as Infinity, and
 * `add` used to answer "Infinity" (and "NaN" for `-1e400` plus `1e400`). The JSON text is written
 * by hand, as no SDK can send it: to the built server over stdio, and over real HTTP sockets to
 * Streamable HTTP (a 2025-11-25 session and a stateless 2026-07-28 request) and to the 2024-11-05
 * HTTP+SSE transport. Each refusal names the field, and the server keeps serving.
 */
import type { HttpListenerHandle } from '@typemcp/core';
import type { JsonObject } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { initialize, JSON_AND_SSE, parseSse, post, SseReader } from '../../../packages/http/test/support/http-fixture';
import { createEverythingServer } from '../src/everything.server';
import { RawStdioChild } from './support/raw-stdio-child';

/** A tools/call of `add` with the arguments as raw JSON text. */
const addCall = (id: number | string, args: string, params = '') =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"add","arguments":${args}${params}}}`;

const refused = (...problems: string[]) => ({ content: [{ type: 'text', text: `Invalid arguments: ${problems.join('; ')}` }], isError: true });

const CASES: [string, string, JsonObject][] = [
  ['1e400 + 1', '{"a":1e400,"b":1}', refused('`a` must be a finite number (got Infinity)')],
  ['-1e400 + 1e400', '{"a":-1e400,"b":1e400}', refused('`a` must be a finite number (got -Infinity)', '`b` must be a finite number (got Infinity)')],
];

/** The answer to a legal call, to show the same connection still serves. */
const SUM = { content: [{ type: 'text', text: '3' }] };

describe('over stdio (the built server)', () => {
  let child: RawStdioChild;
  beforeAll(async () => {
    child = new RawStdioChild();
    await child.initialize('2025-11-25');
  });
  afterAll(() => child.kill());

  it.each(CASES)('%s is refused with the field named', async (_name, args, expected) => {
    child.write(addCall(`stdio ${args}`, args) + '\n');
    expect((await child.waitFor((m) => m.id === `stdio ${args}`)).result).toEqual(expected);
    child.write(addCall(`sum ${args}`, '{"a":1,"b":2}') + '\n');
    expect((await child.waitFor((m) => m.id === `sum ${args}`)).result).toEqual(SUM);
  });
});

describe('over HTTP', () => {
  let listener: HttpListenerHandle;
  beforeAll(async () => {
    listener = await createEverythingServer().listen({ transport: 'http', port: 0, retryMs: 50, keepAliveMs: 0 });
  });
  afterAll(() => listener?.close(0));

  it.each(CASES)('Streamable HTTP, a 2025-11-25 session: %s is refused with the field named', async (_name, args, expected) => {
    const { sessionId } = await initialize(listener.url, '2025-11-25');
    const answer = async (id: number, text: string) => {
      const res = await post(listener.url, text, { 'mcp-session-id': sessionId });
      expect(res.status).toBe(200);
      return parseSse(await res.text())
        .filter((e) => e.data)
        .map((e) => JSON.parse(e.data!) as JsonObject)
        .find((m) => m.id === id)?.result;
    };
    expect(await answer(1, addCall(1, args))).toEqual(expected);
    expect(await answer(2, addCall(2, '{"a":1,"b":2}'))).toEqual(SUM);
  });

  it.each(CASES)('Streamable HTTP, a 2026-07-28 request: %s is refused with the field named', async (_name, args, expected) => {
    const meta = JSON.stringify({
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientCapabilities]: {},
      [MetaKey.clientInfo]: { name: 'raw', version: '1' },
    });
    const res = await post(listener.url, addCall(3, args, `,"_meta":${meta}`), {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'add',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as JsonObject).result).toMatchObject({ resultType: 'complete', ...expected });
  });

  it.each(CASES)('HTTP+SSE, 2024-11-05: %s is refused with the field named', async (_name, args, expected) => {
    const base = listener.url.replace(/\/mcp$/, '');
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } });
    const events = new SseReader(stream);
    try {
      const endpoint = await events.next();
      expect(endpoint).toMatchObject({ event: 'endpoint' });
      const messages = new URL(endpoint!.data!, base).href;
      const send = async (text: string) => expect((await fetch(messages, { method: 'POST', headers: JSON_AND_SSE, body: text })).status).toBe(202);
      await send(
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
      );
      expect(await events.nextMessage()).toMatchObject({ id: 0, result: { protocolVersion: '2024-11-05' } });
      await send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      await send(addCall(1, args));
      expect(await events.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: expected });
      await send(addCall(2, '{"a":1,"b":2}'));
      expect(await events.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: SUM });
    } finally {
      await events.cancel();
    }
  });
});
