import type { ProgressParams } from '@typemcp/testing';
import { connect, fx } from './support';

describe('progress and logs', () => {
  it('passes progress to onProgress with an automatic token and collects it', async () => {
    const client = await connect();
    const seen: ProgressParams[] = [];
    expect(await client.callTool('work', { steps: 3 }, { onProgress: (p) => seen.push(p) })).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    expect(seen[0].progressToken).toEqual(expect.any(String));
    expect(client.progress).toEqual(seen);
  });

  it('sends no progress token (and gets no progress) without onProgress', async () => {
    const client = await connect();
    await client.callTool('work', { steps: 2 });
    expect(client.progress).toEqual([]);
  });

  it('collects logs at the level the client set', async () => {
    const client = await connect();
    await client.callTool('work', { steps: 1 });
    expect(client.logs).toEqual([{ level: 'info', data: 'did 1 steps' }]);
    client.clearNotifications();
    await client.setLogLevel('debug');
    await client.callTool('work', { steps: 1 });
    expect(client.logs.map((l) => l.data)).toEqual(['starting', 'did 1 steps']);
    await client.setLogLevel('error');
    await client.callTool('work', { steps: 1 });
    expect(client.logs).toHaveLength(2);
  });
});

describe('list changes', () => {
  it('waits for tools/list_changed after addService and sees the new tool', async () => {
    const client = await connect();
    expect(client.notifications('notifications/tools/list_changed')).toEqual([]);
    client.server.addService(fx.ExtraService);
    expect(await client.waitForNotification('notifications/tools/list_changed')).toEqual({ method: 'notifications/tools/list_changed' });
    expect((await client.listTools()).map((t) => t.name)).toContain('extra');
    expect(client.notifications().map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
  });

  it('rejects waitForNotification after its timeout, naming what did arrive', async () => {
    const client = await connect();
    await client.callTool('work', { steps: 1 });
    await expect(client.waitForNotification('notifications/prompts/list_changed', undefined, 20)).rejects.toThrow(
      'No notifications/prompts/list_changed notification within 20 ms (received: notifications/message)',
    );
  });

  it('applies the predicate to notifications already received and to later ones', async () => {
    const client = await connect();
    await client.subscribe('shop://greeting');
    await client.subscribe('shop://items/1');
    client.server.notifyResourceUpdated('shop://greeting');
    const later = client.waitForNotification('notifications/resources/updated', (n) => n.params?.uri === 'shop://items/1');
    client.server.notifyResourceUpdated('shop://items/1');
    expect((await later).params).toEqual({ uri: 'shop://items/1' });
    const earlier = await client.waitForNotification('notifications/resources/updated', (n) => n.params?.uri === 'shop://greeting', 10);
    expect(earlier.params).toEqual({ uri: 'shop://greeting' });
  });
});
