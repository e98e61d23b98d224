/**
 * Internals the transport relies on: recognising a response by the engine's serialisation
 * (so outgoing messages are never parsed), media-range checks, and the bounds of the event store.
 */
import type { IncomingMessage } from 'node:http';
import { MemoryEventStore } from '@typemcp/http';
import { ProtocolServer } from '@typemcp/protocol';
import { isResponse, isResponseTo } from '../src/body/classify-message';
import { accepts } from '../src/body/media-type';

describe('response recognition', () => {
  it('matches exactly what the engine writes for a result, an error, and a request made on its behalf', async () => {
    const sent: { message: string; related?: string | number }[] = [];
    const engine = new ProtocolServer({ serverInfo: { name: 't', version: '1' } });
    engine.registry.addTool({ name: 'ask', description: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.request('roots/list', undefined, { timeoutMs: 50 }).catch(() => undefined);
      return { content: [] };
    });
    const session = engine.connect({ send: (message, related) => void sent.push({ message, related }) });
    session.receiveValue({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} } } });
    session.receiveValue({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'ask' } });
    session.receiveValue({ jsonrpc: '2.0', id: 7, method: 'no/such/method' });
    await new Promise((r) => setTimeout(r, 100));
    const [init, rootsRequest, error, cancel, result] = sent;
    expect(isResponseTo(init.message, 'init')).toBe(true);
    // The server's own request reuses id 0, the id of the request it serves: still not a response.
    expect(JSON.parse(rootsRequest.message)).toMatchObject({ id: 0, method: 'roots/list' });
    expect(rootsRequest.related).toBe(0);
    expect(isResponseTo(rootsRequest.message, 0)).toBe(false);
    expect(isResponseTo(error.message, 7)).toBe(true);
    expect(JSON.parse(cancel.message)).toMatchObject({ method: 'notifications/cancelled' });
    expect(isResponseTo(cancel.message, 0)).toBe(false);
    expect(isResponseTo(result.message, 0)).toBe(true);
    expect(isResponseTo(result.message, '0')).toBe(false);
    expect([init, error, result].every((m) => isResponse(m.message))).toBe(true);
    expect([rootsRequest, cancel].some((m) => isResponse(m.message))).toBe(false);
  });
});

describe('Accept checks', () => {
  const req = (accept?: string) => ({ headers: { accept } }) as unknown as IncomingMessage;
  it.each([
    ['application/json, text/event-stream', true],
    ['text/event-stream;q=0.9, application/json;q=1', true],
    ['*/*', true],
    ['application/*, text/*', true],
    ['application/json', false],
    ['application/json, text/event-stream;q=0', false],
    [undefined, false],
  ])('%s accepts both: %s', (accept, both) => {
    expect(accepts(req(accept), 'application/json') && accepts(req(accept), 'text/event-stream')).toBe(both);
  });
});

describe('MemoryEventStore', () => {
  it('keeps events per session and stream, bounded per stream and per session', () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 3, maxBytesPerSession: 1000 });
    for (let seq = 1; seq <= 5; seq++) store.append('s1', 'a', seq, `m${seq}`);
    expect(store.read('s1', 'a', 0)!.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(store.read('s1', 'a', 4)!.map((e) => e.message)).toEqual(['m5']);
    expect(store.read('s2', 'a', 0)).toBeUndefined();
    expect(store.read('s1', 'b', 0)).toBeUndefined();
    // Over the byte budget, older streams go first, then the oldest events of the current one.
    store.append('s1', 'b', 1, 'x'.repeat(800));
    expect(store.read('s1', 'a', 0)).toBeUndefined();
    store.append('s1', 'b', 2, 'y'.repeat(800));
    expect(store.read('s1', 'b', 0)!.map((e) => e.seq)).toEqual([2]);
    store.deleteStream('s1', 'b');
    expect(store.sessionCount).toBe(0);
    store.append('s3', 'c', 1, 'z');
    store.deleteSession('s3');
    expect(store.read('s3', 'c', 0)).toBeUndefined();
  });
});
