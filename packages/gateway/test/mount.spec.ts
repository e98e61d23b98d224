/**
 * mount() with an in-process TypeMCP server as the upstream, driven by the testing kit's client
 * over the engine's real sessions: the naming rule (names, URIs kept or prefixed, URIs inside
 * results), collisions, option checks, tool transforms, tool search, scopes and guards, list
 * changes and resource updates from the upstream, completions, and unmounting.
 */
import 'reflect-metadata';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { Complete, Context, createServer, McpService, Prompt, Resource, resourceLink, Tool, type TypeMcpServer } from '@typemcp/core';
import { DefinitionError, InvalidOptionError } from '@typemcp/protocol';
import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
import { mount, type MountOptions } from '@typemcp/gateway';

class Search {
  @IsString()
  query!: string;

  @IsOptional()
  @IsInt()
  limit?: number;

  @IsOptional()
  @IsString()
  region?: string;
}

@McpService({ deferred: true })
class Library {
  static lastSearch?: Search;

  @Tool({ name: 'find_books', description: 'Finds books by title words' })
  find(input: Search) {
    Library.lastSearch = { ...input };
    return `found ${input.query}`;
  }

  @Tool({ name: 'lend', description: 'Lends a book to a reader' })
  lend() {
    return resourceLink({ uri: 'books://catalogue/1', name: 'book-1' });
  }

  @Tool({ name: 'admin_reset', description: 'Resets the whole catalogue', scopes: ['library:admin'] })
  reset() {
    return 'reset';
  }

  @Resource('books://catalogue/{id}', { name: 'book', description: 'One book' })
  book(ctx: Context) {
    return `book at ${ctx.request.method}`;
  }

  @Resource('books://news', { name: 'news', description: 'What is new' })
  news() {
    return 'nothing new';
  }

  @Prompt({ name: 'review', description: 'Asks for a review of a book' })
  review() {
    return 'Review it.';
  }
}

class TopicArgs {
  @IsString()
  topic!: string;
}

@McpService({ deferred: true })
class Topics {
  @Prompt({ name: 'topic', description: 'A topic prompt' })
  topic(args: TopicArgs) {
    return `Talk about ${args.topic}.`;
  }

  @Complete({ prompt: 'topic', argument: 'topic' })
  completeTopic(value: string) {
    return ['history', 'hiking', 'science'].filter((t) => t.startsWith(value));
  }
}

@McpService({ deferred: true })
class Extra {
  @Tool({ name: 'extra', description: 'Comes later' })
  extra() {
    return 'extra';
  }
}

@McpService({ deferred: true })
class Local {
  @Tool({ name: 'lib_find_books', description: 'A local tool whose name a mount would take' })
  taken() {
    return 'local';
  }
}

@McpService({ deferred: true })
class Jobs {
  @Tool({ name: 'batch', description: 'Runs only as a task', task: 'required' })
  batch() {
    return 'done';
  }

  @Tool({ name: 'maybe_batch', description: 'A task when the client can take one', task: 'optional' })
  maybeBatch() {
    return 'maybe done';
  }
}

const library = () => createServer({ name: 'library', version: '1.0.0', services: [Library, Topics] });
const gateway = () => createServer({ name: 'gateway', version: '1.0.0', services: [] });

async function mounted(options: MountOptions, principal?: unknown): Promise<{ client: TestClient; upstream: TypeMcpServer; outer: TypeMcpServer }> {
  const upstream = library();
  const outer = gateway();
  await mount(outer, upstream, options);
  return { client: await createTestClient({ server: outer, principal }), upstream, outer };
}

describe('the naming rule', () => {
  it('prefixes names with the namespace and "_", and URIs with the namespace and "+", inside results too', async () => {
    const { client } = await mounted({ namespace: 'lib' });
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['lib_admin_reset', 'lib_find_books', 'lib_lend']);
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['lib+books://news']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['lib+books://catalogue/{id}']);
    expect((await client.listPrompts()).map((p) => p.name).sort()).toEqual(['lib_review', 'lib_topic']);
    expect((await client.callTool('lib_lend')).content).toEqual([{ type: 'resource_link', uri: 'lib+books://catalogue/1', name: 'book-1' }]);
    const read = await client.readResource('lib+books://catalogue/7');
    expect(read.contents).toEqual([expect.objectContaining({ uri: 'lib+books://catalogue/7', text: 'book at resources/read' })]);
    expect((await client.getPrompt('lib_review')).messages[0].content).toEqual({ type: 'text', text: 'Review it.' });
  });

  it("keeps URIs with uris: 'keep', and everything without a namespace", async () => {
    const kept = await mounted({ namespace: 'lib', uris: 'keep' });
    expect((await kept.client.listResources()).map((r) => r.uri)).toEqual(['books://news']);
    expect(textOf(await kept.client.callTool('lib_find_books', { query: 'dune' }))).toBe('found dune');
    const plain = await mounted({});
    expect((await plain.client.listTools()).map((t) => t.name).sort()).toEqual(['admin_reset', 'find_books', 'lend']);
    expect((await plain.client.readResource('books://news')).contents[0]).toMatchObject({ uri: 'books://news', text: 'nothing new' });
  });

  it('refuses a mount whose names are taken, registering nothing of it', async () => {
    const outer = createServer({ name: 'gateway', version: '1.0.0', services: [Local] });
    const failed = await mount(outer, library(), { namespace: 'lib' }).catch((e: DefinitionError) => e);
    expect(failed).toBeInstanceOf(DefinitionError);
    expect(failed).toMatchObject({ code: 'TYPEMCP_GATEWAY_NAME_TAKEN', message: expect.stringContaining('"lib_find_books"') });
    expect(outer.engine.registry.listTools().map((t) => t.name)).toEqual(['lib_find_books']);
    expect(outer.engine.registry.listResources()).toEqual([]);
  });

  it('refuses a bad namespace, a namespace mounted twice and credentials to forward', async () => {
    const outer = gateway();
    await expect(mount(outer, library(), { namespace: 'Lib_1' })).rejects.toThrow(/"Lib_1" is not a namespace/);
    await expect(mount(outer, library(), { forwardHeaders: ['Authorization'] })).rejects.toBeInstanceOf(InvalidOptionError);
    await mount(outer, library(), { namespace: 'lib' });
    await expect(mount(outer, library(), { namespace: 'lib' })).rejects.toThrow(/"lib" is mounted already/);
    await expect(mount(outer, { command: '' })).rejects.toThrow(/upstream.command/);
    await expect(mount(outer, { url: 'ftp://example.test' })).rejects.toThrow(/ftp: is not http: or https:/);
  });
});

describe('tool transforms', () => {
  it('filter, hide, rename and describe tools', async () => {
    const { client } = await mounted({
      namespace: 'lib',
      tools: { exclude: [/^admin_/], transform: { lend: { hidden: true }, find_books: { name: 'search', description: 'Searches the library' } } },
    });
    const tools = await client.listTools();
    expect(tools.map((t) => [t.name, t.description])).toEqual([['lib_search', 'Searches the library']]);
    expect(textOf(await client.callTool('lib_search', { query: 'dune' }))).toBe('found dune');
    const only = await mounted({ tools: { include: ['lend'] } });
    expect((await only.client.listTools()).map((t) => t.name)).toEqual(['lend']);
  });

  it('rename an argument, set a default, fix a value and hide an optional one', async () => {
    const { client } = await mounted({
      tools: {
        transform: {
          find_books: { arguments: { query: { name: 'title', description: 'Words of the title' }, limit: { default: 5 }, region: { value: 'eu' } } },
        },
      },
    });
    const [find] = (await client.listTools()).filter((t) => t.name === 'find_books');
    const properties = find.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties).sort()).toEqual(['limit', 'title']);
    expect(properties.title.description).toBe('Words of the title');
    expect(properties.limit.default).toBe(5);
    expect(find.inputSchema.required).toEqual(['title']);

    expect(textOf(await client.callTool('find_books', { title: 'dune' }))).toBe('found dune');
    expect(Library.lastSearch).toEqual({ query: 'dune', limit: 5, region: 'eu' });
    const refused = await client.callTool('find_books', { title: 'dune', region: 'us' });
    expect(refused).toMatchObject({ isError: true, content: [{ text: 'Invalid arguments: "region" is not an argument of this tool' }] });

    const hidden = await mounted({ tools: { transform: { find_books: { arguments: { region: { hidden: true } } } } } });
    await hidden.client.callTool('find_books', { query: 'x' });
    expect(Library.lastSearch).toEqual({ query: 'x' });
    await expect(mounted({ tools: { transform: { find_books: { arguments: { query: { hidden: true } } } } } })).rejects.toThrow(/hides a required argument/);
  });

  it('serve a search tool and a call tool instead of the catalogue', async () => {
    const { client } = await mounted({ namespace: 'lib', tools: { search: true } });
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['lib_call_tool', 'lib_search_tools']);
    const found = await client.callTool('lib_search_tools', { query: 'books by title' });
    const tools = (found.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools[0]).toMatchObject({ name: 'lib_find_books', inputSchema: { type: 'object' } });
    expect(tools.map((t) => t.name)).not.toContain('lib_admin_reset');
    expect(textOf(await client.callTool('lib_call_tool', { name: 'lib_find_books', arguments: { query: 'emma' } }))).toBe('found emma');
    expect(await client.callTool('lib_call_tool', { name: 'nope' })).toMatchObject({ isError: true });
  });

  it('keep task support; tool search, which calls tools plainly, leaves task-only tools out and says why', async () => {
    const direct = library();
    direct.addService(Jobs);
    const outer = gateway();
    await mount(outer, direct, { namespace: 'lib' });
    expect(outer.engine.registry.tool('lib_batch')?.task).toEqual({ support: 'required' });
    expect(outer.engine.registry.tool('lib_maybe_batch')?.task).toEqual({ support: 'optional' });

    const searched = library();
    searched.addService(Jobs);
    const m = await mount(gateway(), searched, { namespace: 'lib', tools: { search: true } });
    expect(m.skipped).toEqual([{ kind: 'tool', name: 'batch', reason: 'it runs only as a task, and tool search calls tools plainly' }]);
  });
});

describe('access', () => {
  it("applies the mount's scopes and guard and the upstream feature's own scopes", async () => {
    const reader = { sub: 'reader', scopes: ['library:read'] };
    const { client } = await mounted({ namespace: 'lib', scopes: ['library:read'], guard: (p) => (p as { sub?: string })?.sub !== 'banned' }, reader);
    // admin_reset needs library:admin (its own) besides library:read (the mount's): hidden from lists.
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['lib_find_books', 'lib_lend']);
    await expect(client.callTool('lib_admin_reset')).rejects.toMatchObject({ code: -32003 });
    const banned = await mounted({ namespace: 'lib', guard: (p) => (p as { sub?: string })?.sub !== 'banned' }, { sub: 'banned' });
    expect(await banned.client.listTools()).toEqual([]);
  });
});

describe('what the upstream announces', () => {
  it('list changes re-sync the mount and reach clients; resource updates reach subscribers; completions are forwarded', async () => {
    const { client, upstream } = await mounted({ namespace: 'lib' });
    upstream.addService(Extra);
    await new Promise((r) => setTimeout(r, 20));
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect((await client.listTools()).map((t) => t.name)).toContain('lib_extra');

    await client.subscribe('lib+books://news');
    upstream.notifyResourceUpdated('books://news');
    await new Promise((r) => setTimeout(r, 20));
    expect(client.notifications('notifications/resources/updated').map((n) => n.params)).toEqual([{ uri: 'lib+books://news' }]);

    expect((await client.complete({ type: 'ref/prompt', name: 'lib_topic' }, { name: 'topic', value: 'hi' })).values).toEqual(['history', 'hiking']);
  });

  it('leaves out, with a warning, a feature the upstream adds later under a name already served', async () => {
    const warnings: unknown[][] = [];
    const noop = () => undefined;
    const logger = {
      warn: (...args: unknown[]) => void warnings.push(args),
      info: noop,
      error: noop,
      debug: noop,
      trace: noop,
      fatal: noop,
      child: () => logger,
    };
    const outer = createServer({ name: 'gateway', version: '1.0.0', services: [], logger: logger as never });
    outer.engine.registry.addTool({ name: 'extra', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const upstream = library();
    const m = await mount(outer, upstream);
    upstream.addService(Extra);
    await new Promise((r) => setTimeout(r, 20));
    expect(m.skipped).toEqual([{ kind: 'tool', name: 'extra', reason: 'tool:extra is already served by this server' }]);
    expect(warnings).toEqual([
      [
        { component: 'gateway', code: 'TYPEMCP_GATEWAY_WARN_FEATURE_SKIPPED', mount: 'upstream' },
        'The tool "extra" of the server mounted as upstream is left out: tool:extra is already served by this server',
      ],
    ]);
  });

  it('close() withdraws everything and the names are free again', async () => {
    const upstream = library();
    const outer = gateway();
    const m = await mount(outer, upstream, { namespace: 'lib' });
    expect(outer.engine.registry.counts().tools).toBe(3);
    await m.close();
    expect(outer.engine.registry.counts()).toEqual({ tools: 0, resources: 0, templates: 0, prompts: 0 });
    expect(m.state).toBe('closed');
    await mount(outer, upstream, { namespace: 'lib' });
    expect(outer.engine.registry.counts().tools).toBe(3);
  });
});
