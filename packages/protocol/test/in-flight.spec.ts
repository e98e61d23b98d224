/**
 * A request is in flight from just before its handler runs until it is answered or cancelled,
 * whether the handler answers synchronously or with a promise: it counts in `inFlightCount`, its
 * id is refused to another request, `notifications/cancelled` and shutdown reach it, and it gets
 * exactly one response. The synchronous cases include messages a handler makes arrive while it
 * runs (a transport that delivers synchronously).
 */
import { ErrorCode, type CallToolResult, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { serverAndPeer, tick, type MemoryPeer } from './support/memory-peer';

const noInput = { type: 'object' as const, properties: {} };
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

function setup() {
  const { server, peer } = serverAndPeer();
  const tool = (name: string, handler: (ctx: RequestContext) => CallToolResult | Promise<CallToolResult>) =>
    server.registry.addTool({ name, description: 'd', inputSchema: noInput }, (_args, ctx) => handler(ctx));
  return { server, peer, tool };
}

const call = (id: string | number, name: string): JsonObject => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });
const answersTo = (peer: MemoryPeer, id: string | number) => peer.received.filter((m) => m.id === id);

describe('requests in flight', () => {
  it('counts a synchronous handler while it runs, and refuses its id to a request that arrives meanwhile', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    const seen: number[] = [];
    tool('reentrant', () => {
      seen.push(peer.session.inFlightCount);
      peer.send(call('r1', 'reentrant-inner'));
      seen.push(peer.session.inFlightCount);
      return text('outer');
    });
    tool('reentrant-inner', () => text('never'));
    peer.send(call('r1', 'reentrant'));
    expect(seen).toEqual([1, 1]);
    expect(peer.session.inFlightCount).toBe(0);
    expect(answersTo(peer, 'r1')).toEqual([
      { jsonrpc: '2.0', id: 'r1', error: { code: ErrorCode.InvalidRequest, message: 'Request id "r1" is already in flight; ids must be unique' } },
      { jsonrpc: '2.0', id: 'r1', result: text('outer') },
    ]);
  });

  it('counts a request that arrives during a synchronous handler, and its own answer', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    let release!: () => void;
    const counts: number[] = [];
    tool('slow', () => new Promise((resolve) => (release = () => resolve(text('slow')))));
    tool('outer', () => {
      peer.send(call('inner', 'slow'));
      counts.push(peer.session.inFlightCount);
      return text('outer');
    });
    peer.send(call('outer', 'outer'));
    expect(counts).toEqual([2]);
    expect(peer.session.inFlightCount).toBe(1);
    release();
    await tick();
    expect(peer.session.inFlightCount).toBe(0);
    expect(answersTo(peer, 'outer')).toEqual([{ jsonrpc: '2.0', id: 'outer', result: text('outer') }]);
    expect(answersTo(peer, 'inner')).toEqual([{ jsonrpc: '2.0', id: 'inner', result: text('slow') }]);
  });

  it('cancels a synchronous handler from within its run: no response, nothing left in flight', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    let aborted: boolean | undefined;
    tool('self-cancel', (ctx) => {
      peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ctx.id, reason: 'changed my mind' } });
      aborted = ctx.signal.aborted;
      return text('too late');
    });
    peer.send(call(7, 'self-cancel'));
    expect(aborted).toBe(true);
    expect(answersTo(peer, 7)).toEqual([]);
    expect(peer.session.inFlightCount).toBe(0);
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('answers a request whose synchronous handler closes the session with the shutdown error, once', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    let closing!: Promise<void>;
    tool('quit', () => {
      closing = peer.session.close(0, 'Bye');
      return text('after close');
    });
    peer.send(call('q', 'quit'));
    await closing;
    expect(answersTo(peer, 'q')).toEqual([{ jsonrpc: '2.0', id: 'q', error: { code: ErrorCode.ConnectionClosed, message: 'Bye' } }]);
    expect(peer.session.inFlightCount).toBe(0);
  });

  it('keeps an asynchronous request in flight until it settles; drained() waits for it', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    let release!: () => void;
    tool('slow', () => new Promise((resolve) => (release = () => resolve(text('slow')))));
    peer.send(call(1, 'slow'));
    expect(peer.session.inFlightCount).toBe(1);
    let drained = false;
    void peer.session.drained().then(() => (drained = true));
    peer.send(call(1, 'slow'));
    expect(answersTo(peer, 1).map((m) => m.error?.code)).toEqual([ErrorCode.InvalidRequest]);
    await tick();
    expect(drained).toBe(false);
    release();
    await tick();
    expect(drained).toBe(true);
    expect(answersTo(peer, 1).map((m) => m.result ?? m.error?.code)).toEqual([ErrorCode.InvalidRequest, text('slow')]);
  });

  it('lets a new request take the id of a cancelled one, and the old run ending does not forget the new one', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    const releases: (() => void)[] = [];
    tool('slow', () => new Promise((resolve) => releases.push(() => resolve(text(`run ${releases.length}`)))));
    peer.send(call('x', 'slow'));
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } });
    expect(peer.session.inFlightCount).toBe(0);
    peer.send(call('x', 'slow'));
    expect(peer.session.inFlightCount).toBe(1);
    releases[0]();
    await tick();
    expect(peer.session.inFlightCount).toBe(1);
    peer.send(call('x', 'slow'));
    expect(answersTo(peer, 'x').map((m) => m.error?.code)).toEqual([ErrorCode.InvalidRequest]);
    releases[1]();
    await tick();
    expect(peer.session.inFlightCount).toBe(0);
    expect(answersTo(peer, 'x').map((m) => m.result ?? m.error?.code)).toEqual([ErrorCode.InvalidRequest, text('run 2')]);
  });

  it('answers every request still in flight when the session closes, waiting ones and the running one', async () => {
    const { peer, tool } = setup();
    await peer.initialize();
    tool('slow', () => new Promise(() => undefined));
    let closing!: Promise<void>;
    tool('quit', () => {
      closing = peer.session.close(0, 'Bye');
      return text('after close');
    });
    peer.send(call('a', 'slow'));
    peer.send(call('b', 'slow'));
    peer.send(call('c', 'quit'));
    await closing;
    const closed = { code: ErrorCode.ConnectionClosed, message: 'Bye' };
    expect(peer.received.filter((m) => m.id !== undefined && m.method === undefined && m.id !== 1000)).toEqual([
      { jsonrpc: '2.0', id: 'a', error: closed },
      { jsonrpc: '2.0', id: 'b', error: closed },
      { jsonrpc: '2.0', id: 'c', error: closed },
    ]);
  });
});
