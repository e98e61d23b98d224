/**
 * Internals the transport relies on: the engine marking which messages answer a request (so
 * outgoing messages are never parsed), media-range checks, and the bounds of the event store.
 */
import type { IncomingMessage } from 'node:http';
import { MemoryEventStore } from '@typemcp/http';
import { principalKey, ProtocolServer } from '@typemcp/protocol';
import { accepts } from '../src/body/media-type';
import { principalOf, sameVerifiedPrincipal } from '../src/security/verified-principal';

describe('response recognition', () => {
  it('is told by the engine for a result and an error, never for a request made on its behalf or a notification', async () => {
    const sent: { message: string; related?: string | number; response?: boolean }[] = [];
    const engine = new ProtocolServer({ serverInfo: { name: 't', version: '1' } });
    engine.registry.addTool({ name: 'ask', description: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.request('roots/list', undefined, { timeoutMs: 50 }).catch(() => undefined);
      return { content: [] };
    });
    const session = engine.connect({
      send: (message, options) => void sent.push({ message, related: options?.relatedRequestId, response: options?.response ?? false }),
    });
    session.receiveValue({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} } } });
    session.receiveValue({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'ask' } });
    session.receiveValue({ jsonrpc: '2.0', id: 7, method: 'no/such/method' });
    await new Promise((r) => setTimeout(r, 100));
    const [init, rootsRequest, error, cancel, result] = sent;
    expect(init).toMatchObject({ related: 'init', response: true });
    // The server's own request reuses id 0, the id of the request it serves: still not a response.
    expect(JSON.parse(rootsRequest.message)).toMatchObject({ id: 0, method: 'roots/list' });
    expect(rootsRequest).toMatchObject({ related: 0, response: false });
    expect(JSON.parse(error.message)).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(error).toMatchObject({ related: 7, response: true });
    expect(JSON.parse(cancel.message)).toMatchObject({ method: 'notifications/cancelled' });
    expect(cancel).toMatchObject({ related: 0, response: false });
    expect(JSON.parse(result.message)).toMatchObject({ id: 0, result: { content: [] } });
    expect(result).toMatchObject({ related: 0, response: true });
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

describe('the identity of a principal (principalKey, sameVerifiedPrincipal)', () => {
  const now = 1_800_000_000;
  const token = (claims: Record<string, unknown>) =>
    principalOf({ iss: 'https://as.example', sub: 'alice', client_id: 'app', scope: 'a', exp: now, jti: 'j1', ...claims });

  it('is issuer + subject + client for a verified token: a refresh is the same, another subject, issuer, client or a subjectless client is not', () => {
    const first = token({});
    const refreshed = token({ jti: 'j2', exp: now + 3600, scope: 'a b', iat: now });
    expect(principalKey(refreshed)).toBe(principalKey(first));
    expect(sameVerifiedPrincipal(first, refreshed)).toBe(true);
    for (const other of [token({ sub: 'bob' }), token({ iss: 'https://evil.example' }), token({ client_id: 'other-app' }), token({ sub: undefined })]) {
      expect(principalKey(other)).not.toBe(principalKey(first));
      expect(sameVerifiedPrincipal(first, other)).toBe(false);
    }
    // Without a subject, the client stands in (client-credentials tokens of some servers), never a subject named like it.
    expect(principalKey(token({ sub: undefined, jti: 'j3' }))).toBe(principalKey(token({ sub: undefined })));
    expect(principalKey(token({ sub: undefined }))).not.toBe(principalKey(token({ sub: 'app' })));
    // Neither subject nor client: only the very same object.
    const nobody = token({ sub: undefined, client_id: undefined });
    expect(sameVerifiedPrincipal(nobody, token({ sub: undefined, client_id: undefined }))).toBe(false);
    expect(sameVerifiedPrincipal(nobody, nobody)).toBe(true);
  });

  it("takes the issuer from claims.iss when the principal has none (the OAuth proxy's principal)", () => {
    const proxied = (jti: string, scopes: string[]) => ({
      subject: 'alice',
      clientId: 'c1',
      scopes,
      claims: { iss: 'https://mcp.example', sub: 'alice', jti },
    });
    expect(principalKey(proxied('j1', ['a']))).toBe(principalKey(proxied('j2', ['a', 'b'])));
    expect(principalKey(proxied('j1', ['a']))).toBe(principalKey(token({ iss: 'https://mcp.example', client_id: 'c1' })));
    expect(principalKey({ ...proxied('j1', []), claims: { iss: 'https://other.example' } })).not.toBe(principalKey(proxied('j1', [])));
  });

  it('is the canonical JSON of any other principal, as before', () => {
    expect(principalKey({ user: 'alice', role: 'admin' })).toBe(principalKey({ role: 'admin', user: 'alice' }));
    expect(principalKey({ user: 'alice', role: 'admin' })).not.toBe(principalKey({ user: 'alice', role: 'guest' }));
    // A subject without claims is not a verified token: all of it counts.
    expect(principalKey({ subject: 'alice', tenant: 1 })).not.toBe(principalKey({ subject: 'alice', tenant: 2 }));
    expect(principalKey(undefined)).toBe(principalKey(null));
    expect(principalKey('verified:["x","sub","y"]')).not.toBe(principalKey({ subject: 'y', claims: { iss: 'x' } }));
  });
});
