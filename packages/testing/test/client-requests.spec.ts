import { ErrorCode } from '@typemcp/core';
import type { CreateMessageParams, ElicitAnswer } from '@typemcp/testing';
import { textOf } from '@typemcp/testing';
import { connect } from './support';

describe('answers to server->client requests', () => {
  it('answers sampling with onSample and declares the capability', async () => {
    const asked: CreateMessageParams[] = [];
    const client = await connect({
      onSample: (params) => {
        asked.push(params);
        return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'hi!' } };
      },
    });
    expect(textOf(await client.callTool('ask'))).toBe('hi!');
    expect(asked).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }]);
    expect(JSON.parse(textOf(await client.callTool('whoami'))).capabilities).toEqual({ sampling: {} });
  });

  it('answers elicitation with onElicit (async), accept and decline', async () => {
    const answers: ElicitAnswer[] = [{ action: 'accept', content: { ok: true } }, { action: 'decline' }];
    const client = await connect({ onElicit: async () => answers.shift()! });
    expect(textOf(await client.callTool('confirm'))).toBe('ok=true');
    expect(textOf(await client.callTool('confirm'))).toBe('decline');
  });

  it('answers roots/list and announces setRoots to the server', async () => {
    const changed = jest.fn();
    const client = await connect({ roots: [{ uri: 'file:///a', name: 'a' }], onRootsChanged: changed });
    expect(textOf(await client.callTool('roots'))).toBe('file:///a');
    client.setRoots([{ uri: 'file:///b' }, { uri: 'file:///c' }]);
    expect(changed).toHaveBeenCalledTimes(1);
    expect(textOf(await client.callTool('roots'))).toBe('file:///b,file:///c');
  });

  it('answers -32601 when a capability is declared but no handler is configured', async () => {
    const client = await connect({ capabilities: { sampling: {} } });
    const result = await client.callTool('ask');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Method not found: sampling/createMessage (the test client has no handler for it)');
  });

  it('answers with the code and message a handler throws', async () => {
    const client = await connect({
      onSample: () => {
        throw Object.assign(new Error('User rejected sampling request'), { code: -1 });
      },
    });
    expect(await client.callTool('ask')).toEqual({ content: [{ type: 'text', text: 'User rejected sampling request' }], isError: true });
    // The error as it travelled: asked straight through the engine's session.
    const [session] = client.server.engine.openSessions;
    await expect(session.request('sampling/createMessage', { messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: -1,
      message: 'User rejected sampling request',
    });
    await expect(session.request('roots/list')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  it('declares nothing by default, so the server refuses to ask', async () => {
    const client = await connect();
    const result = await client.callTool('ask');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not declare the "sampling" capability');
    expect(JSON.parse(textOf(await client.callTool('whoami')))).toEqual({ principal: null, client: 'typemcp-test-client', capabilities: {} });
  });

  it('passes the principal and clientInfo to the server', async () => {
    const client = await connect({ principal: { user: 'ada' }, clientInfo: { name: 'my-client', version: '2.0.0' } });
    expect(JSON.parse(textOf(await client.callTool('whoami')))).toMatchObject({ principal: { user: 'ada' }, client: 'my-client' });
  });
});
