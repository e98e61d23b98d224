import { ErrorCode } from '@typemcp/core';
import { textOf } from '@typemcp/testing';
import { connect } from './support';

describe('resources', () => {
  it('lists resources and templates, and reads both', async () => {
    const client = await connect();
    expect(await client.listResources()).toEqual([{ uri: 'shop://greeting', name: 'greeting', description: 'A greeting', mimeType: 'text/plain' }]);
    expect(await client.listResourceTemplates()).toEqual([
      { uriTemplate: 'shop://items/{index}', name: 'item', description: 'One item by index', mimeType: 'text/plain' },
    ]);
    expect(await client.readResource('shop://greeting')).toEqual({
      contents: [{ uri: 'shop://greeting', mimeType: 'text/plain', text: 'Hello from the shop' }],
    });
    expect(textOf(await client.readResource('shop://items/1'))).toBe('banana');
  });

  it('rejects a missing resource with the server’s code and data', async () => {
    const client = await connect();
    await expect(client.readResource('shop://items/9')).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
      message: 'No item 9',
      data: { uri: 'shop://items/9' },
    });
  });

  it('delivers resources/updated for subscribed URIs only, until unsubscribed', async () => {
    const client = await connect();
    await client.subscribe('shop://greeting');
    client.server.notifyResourceUpdated('shop://greeting');
    client.server.notifyResourceUpdated('shop://items/0');
    expect(client.notifications('notifications/resources/updated').map((n) => n.params?.uri)).toEqual(['shop://greeting']);
    await client.unsubscribe('shop://greeting');
    client.server.notifyResourceUpdated('shop://greeting');
    expect(client.notifications('notifications/resources/updated')).toHaveLength(1);
  });
});

describe('prompts and completion', () => {
  it('lists and gets prompts', async () => {
    const client = await connect();
    expect(await client.listPrompts()).toEqual([
      { name: 'greet', title: 'Greet', description: 'Greets someone by name', arguments: [{ name: 'name', description: 'Who to greet', required: true }] },
    ]);
    expect(await client.getPrompt('greet', { name: 'Ada' })).toEqual({
      description: 'Greets someone by name',
      messages: [{ role: 'user', content: { type: 'text', text: 'Please greet Ada warmly.' } }],
    });
    await expect(client.getPrompt('greet')).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('completes prompt arguments', async () => {
    const client = await connect();
    expect(await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'al' })).toEqual({ values: ['alice', 'albert'] });
    expect(await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'z' }, { other: 'x' })).toEqual({ values: [] });
    await expect(client.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'name', value: '' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });
});
