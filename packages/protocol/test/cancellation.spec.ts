/**
 * Cancellation is expected, not a fault: a tool whose awaited work is aborted by its own
 * request's cancellation (client `notifications/cancelled` or the session closing) is not
 * reported as an internal error; a real error unrelated to the abort still is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallToolResult, RequestContext } from '@typemcp/protocol';
import { serverAndPeer, tick } from './support/memory-peer';

const noInput = { type: 'object' as const, properties: {} };

function setup() {
  const reported: { error: unknown; where: string }[] = [];
  const { server, peer } = serverAndPeer({ onError: (error, where) => reported.push({ error, where }) });
  let ended!: () => void;
  const runEnded = new Promise<void>((resolve) => (ended = resolve));
  const tool = (name: string, body: (ctx: RequestContext) => Promise<CallToolResult>) =>
    server.registry.addTool({ name, description: 'd', inputSchema: noInput }, async (_args, ctx) => {
      try {
        return await body(ctx);
      } finally {
        // The tools/call wrapper sees the outcome one turn later.
        setImmediate(() => setImmediate(ended));
      }
    });
  tool('sleepy', async (ctx) => {
    await sleep(10_000, undefined, { signal: ctx.signal });
    return { content: [] };
  });
  tool('fetchy', async (ctx) => {
    // fetch() and many libraries reject with the signal's reason itself, or wrap it as a cause.
    await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('request failed', { cause: ctx.signal.reason }))));
    return { content: [] };
  });
  tool('buggy', async (ctx) => {
    await sleep(10_000, undefined, { signal: ctx.signal }).catch(() => undefined);
    throw new TypeError('cleanup failed: not related to the abort');
  });
  return { peer, reported, runEnded };
}

describe('cancellation is not an internal error', () => {
  it.each(['sleepy', 'fetchy'])('reports nothing when the client cancels %s', async (name) => {
    const { peer, reported, runEnded } = setup();
    await peer.initialize();
    peer.send({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name } });
    await tick();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user hit stop' } });
    await runEnded;
    await tick();
    expect(reported).toEqual([]);
    expect(peer.received.filter((m) => m.id === 'c1')).toEqual([]);
  });

  it('reports nothing when the session closes under a running tool', async () => {
    const { peer, reported, runEnded } = setup();
    await peer.initialize();
    peer.send({ jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: { name: 'sleepy' } });
    await tick();
    await peer.session.close(0);
    await runEnded;
    await tick();
    expect(reported).toEqual([]);
    expect(peer.received.filter((m) => m.id === 'c2')).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32000 }) })]);
  });

  it('still reports a real error thrown after the abort', async () => {
    const { peer, reported, runEnded } = setup();
    await peer.initialize();
    peer.send({ jsonrpc: '2.0', id: 'c3', method: 'tools/call', params: { name: 'buggy' } });
    await tick();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c3' } });
    await runEnded;
    await tick();
    expect(reported).toEqual([
      { error: expect.objectContaining({ message: 'cleanup failed: not related to the abort' }), where: expect.stringContaining('tools/call buggy') },
    ]);
  });
});
