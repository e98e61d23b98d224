/**
 * Construction options: defaults come from one table (PROTOCOL_DEFAULTS), and every value the
 * engine or the stdio transport cannot work with is refused at construction with
 * TYPEMCP_ERR_INVALID_OPTION naming the option, instead of misbehaving while serving.
 */
import { PassThrough } from 'node:stream';
import { InvalidOptionError, PROTOCOL_DEFAULTS, ProtocolServer, serveStdio, type ProtocolServerOptions, type StdioOptions } from '@typemcp/protocol';
import { serverAndPeer } from './support/memory-peer';

const serverInfo = { name: 'test', version: '1.0.0' };

function refusal(build: () => unknown): InvalidOptionError {
  try {
    build();
  } catch (error) {
    return error as InvalidOptionError;
  }
  throw new Error('the options were accepted');
}

describe('ProtocolServer options', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['pageSize', { pageSize: 0 }],
    ['pageSize', { pageSize: -5 }],
    ['pageSize', { pageSize: 2.5 }],
    ['pageSize', { pageSize: Number.NaN }],
    ['pageSize', { pageSize: '10' }],
    ['maxDepth', { maxDepth: 0 }],
    ['maxDepth', { maxDepth: -1 }],
    ['maxDepth', { maxDepth: Infinity }],
    ['requestTimeoutMs', { requestTimeoutMs: 0 }],
    ['requestTimeoutMs', { requestTimeoutMs: 1.5 }],
    ['requestTimeoutMs', { requestTimeoutMs: 2 ** 31 }],
    ['requestState.ttlMs', { requestState: { ttlMs: -1 } }],
    ['requestState.keys', { requestState: { keys: 'secret' } }],
    ['requestState.keys[0]', { requestState: { keys: [''] } }],
    ['cache', { cache: { tool: { ttlMs: 5 } } }],
    ['cache.tools.ttlMs', { cache: { tools: { ttlMs: -1 } } }],
    ['cache.read.cacheScope', { cache: { read: { cacheScope: 'shared' } } }],
    ['serverInfo.name', { serverInfo: { version: '1' } }],
    ['serverInfo.name', { serverInfo: { name: '', version: '1' } }],
    ['serverInfo.version', { serverInfo: { name: 'x', version: 1 } }],
    ['instructions', { instructions: 42 }],
    ['capabilities', { capabilities: [] }],
    ['onError', { onError: 'log' }],
    ['onRootsChanged', { onRootsChanged: {} }],
    ['serverInfoInResults', { serverInfoInResults: 'yes' }],
  ];

  it.each(bad)('refuses a bad %s (%j) with TYPEMCP_ERR_INVALID_OPTION', (option, given) => {
    const error = refusal(() => new ProtocolServer({ serverInfo, ...given } as ProtocolServerOptions));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option });
    expect(error.message).toContain(`"${option}"`);
  });

  it('says what is accepted and what the default is', () => {
    expect(refusal(() => new ProtocolServer({ serverInfo, pageSize: 0 })).message).toBe(
      `Invalid option "pageSize": 0; it must be an integer of at least 1, or leave it out for the default (${PROTOCOL_DEFAULTS.pageSize}).`,
    );
  });

  it('takes its defaults from PROTOCOL_DEFAULTS', () => {
    const server = new ProtocolServer({ serverInfo });
    expect({ maxDepth: server.maxDepth, requestTimeoutMs: server.requestTimeoutMs }).toEqual({
      maxDepth: PROTOCOL_DEFAULTS.maxDepth,
      requestTimeoutMs: PROTOCOL_DEFAULTS.requestTimeoutMs,
    });
    expect(Object.isFrozen(PROTOCOL_DEFAULTS)).toBe(true);
  });

  it('with the smallest page size, a client following cursors reaches the end of every list', async () => {
    const { server, peer } = serverAndPeer({ pageSize: 1 });
    for (const name of ['a', 'b', 'c']) server.registry.addTool({ name, description: 'd', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await peer.initialize();
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = await peer.request('tools/list', cursor === undefined ? {} : { cursor });
      names.push(...(response.result!.tools as { name: string }[]).map((t) => t.name));
      cursor = response.result!.nextCursor as string | undefined;
      if (cursor === undefined) break;
    }
    expect({ names, cursor }).toEqual({ names: ['a', 'b', 'c'], cursor: undefined });
  });
});

describe('serveStdio options', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['maxMessageBytes', { maxMessageBytes: 0 }],
    ['maxMessageBytes', { maxMessageBytes: 1.5 }],
    ['graceMs', { graceMs: -1 }],
    ['graceMs', { graceMs: 0.5 }],
    ['handleSignals', { handleSignals: 'no' }],
    ['banner', { banner: 0 }],
  ];

  it.each(bad)('refuses a bad %s (%j) before reading anything', (option, given) => {
    const input = new PassThrough();
    const error = refusal(() => serveStdio(new ProtocolServer({ serverInfo }), { input, output: new PassThrough(), ...given } as StdioOptions));
    expect(error).toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option });
    expect(input.listenerCount('data')).toBe(0);
  });
});
