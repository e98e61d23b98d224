import { DefinitionError, ProtocolServer } from '@typemcp/protocol';
import { serverAndPeer, tick } from './support/memory-peer';

describe('setMethodHandler', () => {
  it.each(['initialize', 'tools/call', 'server/discover'])('refuses to replace the built-in %s unless told to', (method) => {
    const server = new ProtocolServer({ serverInfo: { name: 't', version: '1' } });
    let thrown: unknown;
    try {
      server.setMethodHandler(method, () => ({}));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect(thrown).toMatchObject({ code: 'TYPEMCP_ERR_BUILTIN_METHOD' });
    expect((thrown as Error).message).toContain(`"${method}"`);
  });

  it('replaces a built-in with { replace: true } and serves the new handler', async () => {
    const { server, peer } = serverAndPeer();
    await peer.initialize('2025-11-25');
    server.setMethodHandler('ping', () => ({ replaced: true }), { replace: true });
    expect((await peer.request('ping')).result).toEqual({ replaced: true });
  });

  it('adds and replaces methods of its own freely', async () => {
    const { server, peer } = serverAndPeer();
    await peer.initialize('2025-11-25');
    server.setMethodHandler('x/echo', () => ({ n: 1 }));
    server.setMethodHandler('x/echo', () => ({ n: 2 }));
    expect((await peer.request('x/echo')).result).toEqual({ n: 2 });
  });
});

describe('setNotificationHandler', () => {
  it('dispatches a client notification to the handler with its params and session', async () => {
    const { server, peer } = serverAndPeer();
    const seen: unknown[] = [];
    server.setNotificationHandler('notifications/x/custom', (params, session) => void seen.push(params, session));
    await peer.initialize('2025-11-25');
    peer.send({ jsonrpc: '2.0', method: 'notifications/x/custom', params: { a: 1 } });
    expect(seen).toEqual([{ a: 1 }, peer.session]);
  });

  it('reports what a handler throws or rejects with to onError, never to the client, and keeps serving', async () => {
    const errors: [unknown, string][] = [];
    const { server, peer } = serverAndPeer({ onError: (error, where) => errors.push([error, where]) });
    server.setNotificationHandler('notifications/x/throws', () => {
      throw new Error('sync');
    });
    server.setNotificationHandler('notifications/x/rejects', () => Promise.reject(new Error('async')));
    await peer.initialize('2025-11-25');
    peer.received.length = 0;
    peer.send({ jsonrpc: '2.0', method: 'notifications/x/throws' });
    peer.send({ jsonrpc: '2.0', method: 'notifications/x/rejects' });
    await tick();
    expect(errors.map(([e, where]) => [(e as Error).message, where])).toEqual([
      ['sync', 'notifications/x/throws'],
      ['async', 'notifications/x/rejects'],
    ]);
    expect(peer.received).toEqual([]);
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('refuses to replace notifications/cancelled or notifications/initialized unless told to', () => {
    const server = new ProtocolServer({ serverInfo: { name: 't', version: '1' } });
    for (const method of ['notifications/cancelled', 'notifications/initialized']) {
      expect(() => server.setNotificationHandler(method, () => undefined)).toThrow(DefinitionError);
    }
    expect(() => server.setNotificationHandler('notifications/initialized', () => undefined, { replace: true })).not.toThrow();
  });

  it('keeps onRootsChanged as a shorthand that a later handler can replace', async () => {
    const calls: string[] = [];
    const { server, peer } = serverAndPeer({ onRootsChanged: () => void calls.push('option') });
    await peer.initialize('2025-11-25', { roots: {} });
    peer.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    server.setNotificationHandler('notifications/roots/list_changed', () => void calls.push('handler'));
    peer.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(calls).toEqual(['option', 'handler']);
  });
});

describe('server->client requests', () => {
  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const { peer } = serverAndPeer();
    await peer.initialize('2025-11-25', { roots: {} });
    peer.received.length = 0;
    const controller = new AbortController();
    controller.abort();
    await expect(peer.session.request('roots/list', undefined, { signal: controller.signal })).rejects.toMatchObject({ message: 'roots/list cancelled' });
    expect(peer.received).toEqual([]);
  });
});
