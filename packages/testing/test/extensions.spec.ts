/**
 * The test client and extensions, in both eras: it declares extensions (`clientExtensions`, in
 * `initialize` or in each request's `_meta`), sees the server's (`serverCapabilities.extensions`),
 * and calls extension methods (`call()` without the era's envelope, `request()` with it).
 */
import { Context, getMetadataStorage, McpService, Tool, type ServerExtension } from '@typemcp/core';
import { createTestClient, JsonRpcError, textOf } from '@typemcp/testing';

const ID = 'com.example/greeting';

const greeting: ServerExtension = {
  id: ID,
  settings: { languages: ['en', 'fr'] },
  methods: {
    'greeting/say': {
      requiresClient: true,
      cache: 'list',
      handler: (params, ctx) => ({ text: `${ctx.clientExtension(ID)?.language === 'fr' ? 'Bonjour' : 'Hello'}, ${String(params.name)}` }),
    },
  },
};

function defineService() {
  @McpService()
  class Greeter {
    @Tool({ description: 'Greets in the client language' })
    greet(ctx: Context) {
      const other = ctx.clientExtension('com.example/other') ? ' and com.example/other' : '';
      return ctx.clientExtension(ID) ? `declared ${JSON.stringify(ctx.clientExtension(ID))}${other}` : 'not declared';
    }
  }
  return Greeter;
}

beforeEach(() => getMetadataStorage().reset());

describe.each(['2025-11-25', '2026-07-28'])('at %s', (revision) => {
  it('declares extensions, sees the server settings and calls extension methods', async () => {
    const Greeter = defineService();
    const client = await createTestClient({
      revision,
      services: [Greeter],
      extensions: [greeting],
      clientExtensions: { [ID]: { language: 'fr' } },
      capabilities: { extensions: { 'com.example/other': {} } },
    });
    try {
      expect(client.serverCapabilities.extensions).toEqual({ [ID]: { languages: ['en', 'fr'] } });
      expect(await client.call('greeting/say', { name: 'Ada' })).toEqual({ text: 'Bonjour, Ada' });
      const raw = await client.request('greeting/say', { name: 'Ada' });
      if (revision === '2026-07-28') expect(raw).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
      else expect(raw).toEqual({ text: 'Bonjour, Ada' });
      expect(textOf(await client.callTool('greet'))).toBe('declared {"language":"fr"} and com.example/other');
    } finally {
      await client.close();
    }
  });

  it('a client that does not declare the extension is refused its required method', async () => {
    const client = await createTestClient({ revision, services: [defineService()], extensions: [greeting] });
    try {
      const refused = await client.call('greeting/say', { name: 'Ada' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(JsonRpcError);
      expect(refused).toMatchObject({ code: revision === '2026-07-28' ? -32021 : -32601 });
      expect(textOf(await client.callTool('greet'))).toBe('not declared');
    } finally {
      await client.close();
    }
  });
});
