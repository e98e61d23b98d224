/**
 * Per-user state on the engine (one process, the in-memory store): who a request's user is in
 * each era, what is refused (no user, a value too large, a bad slot), and the memory store's
 * bounds, expiry and compare-and-set.
 */
import { MemoryUserStateStore, ProtocolErrorCode, userState, type JsonObject, type RequestContext, type UserStateError } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer, serverAndPeer, type Message } from './support/memory-peer';

const notes = userState<string[]>('notes');
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const textOf = (m: Message) => (m.result as { content: { text: string }[] }).content[0].text;

function setup(options: Parameters<typeof serverAndPeer>[0] = {}) {
  const errors: unknown[] = [];
  const { server, peer } = serverAndPeer({ onError: (e) => errors.push(e), ...options });
  const add = (name: string, handler: (args: JsonObject, ctx: RequestContext) => Promise<unknown>) =>
    server.registry.addTool({ name, description: name, inputSchema: { type: 'object' } }, (args, ctx) =>
      handler(args, ctx).then((v) => text(JSON.stringify(v))),
    );
  add('remember', (args, ctx) => ctx.userState(notes).update((list = []) => [...list, String(args.item)]));
  add('recall', async (_args, ctx) => (await ctx.userState(notes).get()) ?? null);
  add('big', (args, ctx) =>
    ctx
      .userState(userState<string>('big', { maxBytes: 16 }))
      .set(String(args.value))
      .then(() => 'stored'),
  );
  add('forget', (_args, ctx) =>
    ctx
      .userState(notes)
      .delete()
      .then(() => 'forgotten'),
  );
  return { server, peer, errors };
}

const call = (peer: MemoryPeer, name: string, args: JsonObject = {}, meta?: JsonObject) =>
  peer.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });
const modernMeta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: { name: 't', version: '1' } };

describe('per-user state', () => {
  it('without authentication each legacy session is its own user; with it, the principal is, in both eras and any session', async () => {
    const { server, peer } = setup();
    await peer.initialize();
    const other = new MemoryPeer(server);
    await other.initialize();
    await call(peer, 'remember', { item: 'mine' });
    expect(textOf(await call(peer, 'recall'))).toBe('["mine"]');
    expect(textOf(await call(other, 'recall'))).toBe('null');

    const alice1 = new MemoryPeer(server);
    const alice2 = new MemoryPeer(server);
    const bob = new MemoryPeer(server);
    alice1.session.principal = { sub: 'alice' };
    alice2.session.principal = { sub: 'alice' };
    bob.session.principal = { sub: 'bob' };
    await alice1.initialize();
    await call(alice1, 'remember', { item: 'from a session' });
    // A 2026-07-28 request of the same principal, on another connection: the same value.
    expect(textOf(await call(alice2, 'remember', { item: 'stateless' }, modernMeta))).toBe('["from a session","stateless"]');
    expect(textOf(await call(bob, 'recall', {}, modernMeta))).toBe('null');
    await call(alice2, 'forget', {}, modernMeta);
    expect(textOf(await call(alice1, 'recall'))).toBe('null');
  });

  it('refuses a 2026-07-28 request with no principal (no user), and a value over its maxBytes, with the code of a UserStateError', async () => {
    const { peer, errors } = setup();
    const anonymous = await call(peer, 'recall', {}, modernMeta);
    expect(anonymous.result).toMatchObject({ isError: true });
    expect(errors).toEqual([expect.objectContaining({ name: 'UserStateError', code: ProtocolErrorCode.UserStateAnonymous })]);

    peer.session.principal = { sub: 'carol' };
    expect(textOf(await call(peer, 'big', { value: 'short' }, modernMeta))).toBe('"stored"');
    expect((await call(peer, 'big', { value: 'far too long for sixteen bytes' }, modernMeta)).result).toMatchObject({ isError: true });
    expect((errors[1] as UserStateError).code).toBe(ProtocolErrorCode.UserStateTooLarge);
    expect((errors[1] as Error).message).toBe('userState("big"): the value is 32 bytes as JSON, over the 16 allowed');
  });

  it('takes its store, TTL and size cap from the userState option', async () => {
    const store = new MemoryUserStateStore();
    const { peer } = setup({ userState: { store, ttlMs: 50 } });
    peer.session.principal = { sub: 'dave' };
    await call(peer, 'remember', { item: 'soon gone' }, modernMeta);
    expect(store.size).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(textOf(await call(peer, 'recall', {}, modernMeta))).toBe('null');
    expect(() => setup({ userState: { store: {} as never } })).toThrow('Invalid option "userState.store"');
  });

  it('slots are checked where they are defined', () => {
    expect(() => userState('')).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_USER_STATE' }));
    expect(() => userState('a b')).toThrow("name it with 1 to 100 letters, digits, '_', '.' or '-'");
    expect(() => userState('ok', { ttlMs: 0 })).toThrow('userState("ok"): "ttlMs" must be a positive whole number, not 0.');
    expect(userState('cart', { maxBytes: 10 })).toEqual({ name: 'cart', maxBytes: 10 });
  });
});

describe('MemoryUserStateStore', () => {
  it('writes only on the expected version, expires values, and keeps at most maxEntries (least recently used first out)', async () => {
    const store = new MemoryUserStateStore({ maxEntries: 2 });
    expect(store.set('u', 'a', '1', 60_000, 0)).toBe(1);
    expect(store.set('u', 'a', '2', 60_000, 0)).toBeUndefined();
    expect(store.set('u', 'a', '2', 60_000, 1)).toBe(2);
    expect(store.get('u', 'a')).toEqual({ value: '2', version: 2 });
    store.set('u', 'b', 'b', 60_000);
    store.get('u', 'a');
    store.set('u', 'c', 'c', 60_000);
    // b was the least recently used.
    expect([store.get('u', 'a')?.value, store.get('u', 'b'), store.get('u', 'c')?.value]).toEqual(['2', undefined, 'c']);
    store.set('v', 'x', 'x', 20);
    await new Promise((r) => setTimeout(r, 40));
    expect(store.get('v', 'x')).toBeUndefined();
  });
});
