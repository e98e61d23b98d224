/**
 * What handlers may return: values are sent without silent loss (Date -> ISO string, bigint ->
 * digits), what JSON cannot carry is refused as a server fault (reported, masked to the client),
 * `undefined`/`null` from a tool is an empty result, and a resource says "not found" with
 * ResourceNotFoundError, answered with the code of the request's revision.
 */
import { IsString } from 'class-validator';
import {
  createServer,
  getMetadataStorage,
  McpService,
  Resource,
  ResourceNotFoundError,
  Tool,
  UnrepresentableResultError,
  type TypeMcpServer,
} from '@typemcp/core';
import type { JsonObject } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer } from '../../protocol/test/support/memory-peer';

const servers: TypeMcpServer[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

class ItemRef {
  @IsString() id!: string;
}

function serve() {
  const reported: { error: unknown; where: string }[] = [];

  @McpService()
  class Returns {
    @Tool({ description: 'd' }) map() {
      return new Map([['a', 1]]);
    }
    @Tool({ description: 'd' }) nestedSet() {
      return { tags: new Set(['x']) };
    }
    @Tool({ description: 'd' }) fn() {
      return { run: () => 1 };
    }
    @Tool({ description: 'd' }) notANumber() {
      return { ratio: 0 / 0 };
    }
    @Tool({ description: 'd' }) promise() {
      return [Promise.resolve(1)];
    }
    @Tool({ description: 'd' }) big() {
      return { id: 12345678901234567890n };
    }
    @Tool({ description: 'd' }) date() {
      return new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    }
    @Tool({ description: 'd' }) nestedDate() {
      return { at: new Date(Date.UTC(2026, 0, 2)) };
    }
    @Tool({ description: 'd' }) nothing() {
      return undefined;
    }
    @Tool({ description: 'd' }) nil() {
      return null;
    }
    @Resource('res://number', { description: 'd' }) number() {
      return 42;
    }
    @Resource('res://items/{id}', { description: 'd' }) item(params: ItemRef) {
      if (params.id !== '1') throw new ResourceNotFoundError(`res://items/${params.id}`);
      return 'item 1';
    }
  }

  const server = createServer({ name: 'r', version: '1', services: [Returns], onError: (error, where) => reported.push({ error, where }) });
  servers.push(server);
  return { server, reported };
}

async function legacy(server: TypeMcpServer) {
  const peer = new MemoryPeer(server.engine);
  await peer.initialize('2025-11-25');
  return peer;
}

const call = async (peer: MemoryPeer, name: string) => (await peer.request('tools/call', { name })).result as JsonObject;

describe('tool results', () => {
  it.each([
    ['map', 'returned a Map,'],
    ['nestedSet', 'returned a Set at "tags"'],
    ['fn', 'returned a function at "run"'],
    ['notANumber', 'returned NaN at "ratio"'],
    ['promise', 'returned a Promise (await it first)'],
  ])('refuses what JSON cannot carry (%s): reported with the tool named, masked to the client', async (tool, says) => {
    const { server, reported } = serve();
    const peer = await legacy(server);
    expect(await call(peer, tool)).toEqual({ content: [{ type: 'text', text: `Tool "${tool}" failed: internal error` }], isError: true });
    expect(reported).toHaveLength(1);
    expect(reported[0].error).toBeInstanceOf(UnrepresentableResultError);
    expect(reported[0].error).toMatchObject({ code: 'TYPEMCP_ERR_UNREPRESENTABLE_RESULT', message: expect.stringContaining(says) });
    expect(reported[0].where).toContain(`tools/call ${tool}`);
  });

  it('converts what it can without loss: bigint to digits, Date to its ISO string', async () => {
    const { server, reported } = serve();
    const peer = await legacy(server);
    expect(await call(peer, 'big')).toEqual({ content: [{ type: 'text', text: '{"id":"12345678901234567890"}' }] });
    expect(await call(peer, 'date')).toEqual({ content: [{ type: 'text', text: '2026-01-02T03:04:05.000Z' }] });
    expect(await call(peer, 'nestedDate')).toEqual({ content: [{ type: 'text', text: '{"at":"2026-01-02T00:00:00.000Z"}' }] });
    expect(reported).toEqual([]);
  });

  it('answers undefined and null with an empty result (legal MCP, documented)', async () => {
    const { server, reported } = serve();
    const peer = await legacy(server);
    expect(await call(peer, 'nothing')).toEqual({ content: [] });
    expect(await call(peer, 'nil')).toEqual({ content: [] });
    expect(reported).toEqual([]);
  });
});

describe('resource results', () => {
  it('refuses a value that is not resource contents as a masked internal error naming the resource', async () => {
    const { server, reported } = serve();
    const peer = await legacy(server);
    expect((await peer.request('resources/read', { uri: 'res://number' })).error).toEqual({ code: -32603, message: 'Internal error' });
    expect(reported[0].error).toMatchObject({
      code: 'TYPEMCP_ERR_UNREPRESENTABLE_RESULT',
      message: expect.stringContaining('resource res://number returned a number'),
    });
  });

  it('answers ResourceNotFoundError with -32002 on legacy revisions and -32602 at 2026-07-28, data { uri }', async () => {
    const { server, reported } = serve();
    const peer = await legacy(server);
    const expected = { message: 'Resource not found: res://items/9', data: { uri: 'res://items/9' } };
    expect((await peer.request('resources/read', { uri: 'res://items/9' })).error).toEqual({ code: -32002, ...expected });
    const modern = new MemoryPeer(server.engine);
    const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: { name: 't', version: '1' } };
    expect((await modern.request('resources/read', { uri: 'res://items/9', _meta: meta })).error).toEqual({ code: -32602, ...expected });
    expect((await peer.request('resources/read', { uri: 'res://items/1' })).result).toEqual({ contents: [{ uri: 'res://items/1', text: 'item 1' }] });
    expect(reported).toEqual([]);
  });
});
