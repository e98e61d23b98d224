import { ErrorCode } from '@typemcp/core';
import { JsonRpcError, textOf } from '@typemcp/testing';
import { connect } from './support';

describe('tools', () => {
  it('lists tools with their schemas, titles and annotations', async () => {
    const client = await connect();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'items', 'work', 'fail', 'ask', 'confirm', 'roots', 'whoami', 'hang']);
    expect(tools[0]).toMatchObject({
      name: 'add',
      title: 'Add',
      description: 'Adds two integers',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: { a: { type: 'integer', description: 'First addend' } }, required: ['a', 'b'] },
      outputSchema: { type: 'object', properties: { sum: { type: 'integer' } } },
    });
  });

  it('calls a tool and returns the result as received, structured content included', async () => {
    const client = await connect();
    const result = await client.callTool('add', { a: 1, b: 2 });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    expect(textOf(await client.callTool('items'))).toBe('apple, banana, cherry');
  });

  it('resolves with tool errors (isError) rather than rejecting', async () => {
    const client = await connect();
    expect(await client.callTool('fail')).toEqual({ content: [{ type: 'text', text: 'This tool always fails' }], isError: true });
    const invalid = await client.callTool('add', { a: 'one', b: 2 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('`a` must be an integer (got string "one")');
  });

  it('rejects protocol errors with a JsonRpcError carrying code, message and method', async () => {
    const client = await connect();
    const error = await client.callTool('nope').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: 'Unknown tool: nope', method: 'tools/call' });
    await expect(client.request('no/such/method')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound, message: 'Method not found: no/such/method' });
  });

  it('follows nextCursor to collect every page', async () => {
    const client = await connect({ pageSize: 2 });
    const firstPage = await client.request<{ tools: unknown[]; nextCursor?: string }>('tools/list');
    expect(firstPage.tools).toHaveLength(2);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    expect(await client.listTools()).toHaveLength(9);
    expect(await client.listResources()).toHaveLength(1);
  });
});
