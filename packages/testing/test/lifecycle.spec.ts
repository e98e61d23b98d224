import { ErrorCode } from '@typemcp/core';
import { JsonRpcError } from '@typemcp/testing';
import { connect } from './support';

describe('cancellation, timeouts and close', () => {
  it('cancels a request when its signal aborts: rejects with the reason, the server sees the cancellation', async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool('hang', {}, { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    // The server's in-flight request was cancelled: the session has nothing left running.
    expect([...client.server.engine.openSessions][0].inFlightCount).toBe(0);
  });

  it('rejects a request that gets no response within timeoutMs', async () => {
    const client = await connect({ timeoutMs: 30 });
    await expect(client.callTool('hang')).rejects.toThrow('tools/call got no response within 30 ms');
    await expect(client.callTool('hang', {}, { timeoutMs: 10 })).rejects.toThrow('tools/call got no response within 10 ms');
    expect([...client.server.engine.openSessions][0].inFlightCount).toBe(0);
  });

  it('answers in-flight requests with -32000 on close, and refuses requests afterwards', async () => {
    const client = await connect();
    const pending = client.callTool('hang');
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    const after = await client.ping().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(after).toBeInstanceOf(JsonRpcError);
    expect(after).toMatchObject({ code: ErrorCode.ConnectionClosed, message: 'The test client is closed' });
    expect(client.server.engine.openSessions.size).toBe(0);
  });

  it('sends extra _meta with a request', async () => {
    const client = await connect();
    let seen: unknown;
    client.server.engine.setMethodHandler('test/echo', (params) => ((seen = params), {}));
    await client.request('test/echo', { x: 1 }, { meta: { trace: 'abc' } });
    expect(seen).toEqual({ x: 1, _meta: { trace: 'abc' } });
  });
});
