import { createServer } from '@typemcp/core';
import { textOf } from '@typemcp/testing';
import { connect, fx } from './support';

describe('DI overrides through providers', () => {
  it('replaces an @Injectable dependency with a value', async () => {
    const client = await connect({ providers: [{ provide: fx.ItemStore, useValue: { list: () => ['fake'] } }] });
    expect(textOf(await client.callTool('items'))).toBe('fake');
    expect(textOf(await client.readResource('shop://items/0'))).toBe('fake');
  });

  it('replaces an @Injectable dependency with another class', async () => {
    class TinyStore extends fx.ItemStore {
      override items = ['only'];
    }
    const client = await connect({ providers: [{ provide: fx.ItemStore, useClass: TinyStore }] });
    expect(textOf(await client.callTool('items'))).toBe('only');
    expect(client.server.get(fx.ItemStore)).toBeInstanceOf(TinyStore);
  });

  it('replaces an @McpService class with a subclass: its methods serve the same tools', async () => {
    class FakeShop extends fx.ShopService {
      override items() {
        return `overridden: ${this.store.list().length} items`;
      }
    }
    const client = await connect({ providers: [{ provide: fx.ShopService, useClass: FakeShop }] });
    expect(textOf(await client.callTool('items'))).toBe('overridden: 3 items');
    expect(textOf(await client.callTool('add', { a: 1, b: 1 }))).toBe('{"sum":2}');
    expect(client.server.get(fx.ShopService)).toBeInstanceOf(FakeShop);
  });

  it('replaces an @McpService class with a ready instance', async () => {
    const instance = new fx.ShopService({ list: () => ['hand-made'] } as InstanceType<typeof fx.ItemStore>, undefined as never);
    const client = await connect({ providers: [{ provide: fx.ShopService, useValue: instance }] });
    expect(textOf(await client.callTool('items'))).toBe('hand-made');
    expect(client.server.get(fx.ShopService)).toBe(instance);
  });

  it('builds a service class override after the values it depends on, whatever the listed order', async () => {
    class FakeShop extends fx.ShopService {}
    const client = await connect({
      providers: [
        { provide: fx.ShopService, useClass: FakeShop },
        { provide: fx.ItemStore, useValue: { list: () => ['listed later'] } },
      ],
    });
    expect(textOf(await client.callTool('items'))).toBe('listed later');
  });
});

describe('an existing server', () => {
  it('connects several clients to it and leaves it open when one closes', async () => {
    const server = createServer({ name: 'shared', version: '1', services: [fx.ShopService] });
    const first = await connect({ server });
    const second = await connect({ server, revision: '2024-11-05' });
    server.addService(fx.ExtraService);
    await Promise.all([first, second].map((c) => c.waitForNotification('notifications/tools/list_changed')));
    await first.close();
    expect(textOf(await second.callTool('extra'))).toBe('extra');
    expect(server.engine.openSessions.size).toBe(1);
    await server.close();
  });

  it('closes the server with the client only when asked to', async () => {
    const kept = createServer({ name: 'kept', version: '1', services: [fx.ShopService] });
    await (await connect({ server: kept })).close();
    expect(kept.get(fx.ShopService)).toBeInstanceOf(fx.ShopService);
    await kept.close();

    const closed = createServer({ name: 'closed', version: '1', services: [fx.ShopService] });
    const other = await connect({ server: closed });
    const pending = other.callTool('hang');
    await (await connect({ server: closed, closeServer: true })).close();
    await expect(pending).rejects.toMatchObject({ code: -32000, message: 'Server is shutting down' });
    await expect(other.ping()).rejects.toMatchObject({ code: -32000, message: 'The server closed the connection' });
  });
});
