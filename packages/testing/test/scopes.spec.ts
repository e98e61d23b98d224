/**
 * Scopes declared on tools, resources and prompts, without HTTP: the engine hides what an
 * authenticated principal's scopes do not reach and refuses a request for it with -32003
 * (`TYPEMCP_INSUFFICIENT_SCOPE`, naming the missing scopes), in both eras; a session without a
 * principal (stdio, HTTP without auth) is not subject to scopes.
 */
import { createServer, DefinitionError, getMetadataStorage, McpService, Prompt, Resource, Tool } from '@typemcp/core';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';

function declare() {
  getMetadataStorage().reset();
  @McpService({ scopes: ['notes:read'] })
  class Notes {
    @Tool({ description: 'Lists notes' })
    notes_list() {
      return 'none';
    }

    @Tool({ description: 'Adds a note', scopes: ['notes:write', 'notes:read'] })
    notes_add() {
      return 'added';
    }

    @Resource('notes://archive', { description: 'Archive', scopes: ['notes:archive'] })
    archive() {
      return 'old';
    }

    @Resource('notes://item/{id}', { description: 'One note', scopes: ['notes:item'] })
    item() {
      return 'one';
    }

    @Prompt({ description: 'Summarise', scopes: ['notes:write'] })
    summarise() {
      return 'Summarise';
    }
  }
  return Notes;
}

const open: TestClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  getMetadataStorage().reset();
});

async function client(principal: unknown, revision?: string) {
  const c = await createTestClient({ services: [declare()], principal, ...(revision ? { revision } : {}) });
  open.push(c);
  return c;
}

describe.each([['2025-11-25'], ['2026-07-28']])('at %s', (revision) => {
  it('hides and refuses what a principal with too few scopes asks for, naming the missing scopes', async () => {
    const c = await client({ sub: 'ann', scopes: ['notes:read'] }, revision);
    expect((await c.listTools()).map((t) => t.name)).toEqual(['notes_list']);
    expect(await c.listResources()).toEqual([]);
    expect(await c.listResourceTemplates()).toEqual([]);
    expect(await c.listPrompts()).toEqual([]);
    expect(textOf(await c.callTool('notes_list'))).toBe('none');
    const refused = (await c.callTool('notes_add').catch((e: unknown) => e)) as JsonRpcError;
    expect(refused).toBeInstanceOf(JsonRpcError);
    expect([refused.code, refused.message, refused.data]).toEqual([
      -32003,
      'Insufficient scope: this request needs the scope notes:write',
      { code: 'TYPEMCP_INSUFFICIENT_SCOPE', requiredScopes: ['notes:read', 'notes:write'], missingScopes: ['notes:write'] },
    ]);
    expect(await c.readResource('notes://archive').catch((e: JsonRpcError) => e.data)).toMatchObject({ missingScopes: ['notes:archive'] });
    expect(await c.readResource('notes://item/7').catch((e: JsonRpcError) => e.data)).toMatchObject({ missingScopes: ['notes:item'] });
    expect(await c.getPrompt('summarise').catch((e: JsonRpcError) => e.data)).toMatchObject({ missingScopes: ['notes:write'] });
  });

  it('serves everything to a principal with every scope', async () => {
    const c = await client({ sub: 'ann', scopes: ['notes:read', 'notes:write', 'notes:archive', 'notes:item'] }, revision);
    expect((await c.listTools()).map((t) => t.name)).toEqual(['notes_list', 'notes_add']);
    expect(textOf(await c.callTool('notes_add'))).toBe('added');
    expect((await c.readResource('notes://archive')).contents).toHaveLength(1);
    expect((await c.listPrompts()).map((p) => p.name)).toEqual(['summarise']);
  });
});

it('does not check scopes of a session without a principal (stdio, HTTP without auth)', async () => {
  const c = await client(undefined);
  expect((await c.listTools()).map((t) => t.name)).toEqual(['notes_list', 'notes_add']);
  expect(textOf(await c.callTool('notes_add'))).toBe('added');
});

it('treats a principal without a scopes array as having no scopes', async () => {
  const c = await client('just-a-name');
  expect(await c.listTools()).toEqual([]);
  await expect(c.callTool('notes_list')).rejects.toMatchObject({ code: -32003 });
});

it('lists what is refused with hideUnauthorized: false, and still refuses the call', async () => {
  const server = createServer({ name: 'n', version: '1', services: [declare()], hideUnauthorized: false });
  const c = await createTestClient({ server, closeServer: true, principal: { scopes: [] } });
  open.push(c);
  expect((await c.listTools()).map((t) => t.name)).toEqual(['notes_list', 'notes_add']);
  await expect(c.callTool('notes_list')).rejects.toMatchObject({ code: -32003 });
});

it('refuses a scope that is not an RFC 6749 scope token when the server is built', () => {
  getMetadataStorage().reset();
  @McpService()
  class Bad {
    @Tool({ description: 'x', scopes: ['has space'] })
    x() {
      return 'x';
    }
  }
  expect(() => createServer({ name: 'b', version: '1', services: [Bad] })).toThrow(
    expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_SCOPE', constructor: DefinitionError }) as Error,
  );
});
