import { ErrorCode, LEGACY_REVISIONS } from '@typemcp/protocol';
import { serverAndPeer } from './support/memory-peer';

const noInput = { type: 'object' as const, properties: {} };

describe('lifecycle', () => {
  it.each(LEGACY_REVISIONS)('accepts the requested revision %s', async (revision) => {
    const { peer } = serverAndPeer();
    const response = await peer.initialize(revision);
    expect(response.result).toMatchObject({ protocolVersion: revision, serverInfo: { name: 'test', version: '1.0.0' } });
  });

  it.each(['1999-01-01', '2026-07-28', '2024-10-07'])('answers an unserved revision (%s) with the latest legacy one', async (requested) => {
    const { peer } = serverAndPeer();
    expect((await peer.initialize(requested)).result?.protocolVersion).toBe('2025-11-25');
  });

  it('derives capabilities from what is registered', async () => {
    const empty = serverAndPeer();
    expect((await empty.peer.initialize()).result?.capabilities).toEqual({ logging: {} });

    const { server, peer } = serverAndPeer();
    server.registry.addTool({ name: 't', description: 'd', inputSchema: noInput }, () => ({ content: [] }));
    server.registry.addPrompt({ name: 'p' }, () => ({ messages: [] }), { a: () => [] });
    expect((await peer.initialize()).result?.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it('does not declare completions to a 2024-11-05 client', async () => {
    const { server, peer } = serverAndPeer();
    server.registry.addPrompt({ name: 'p' }, () => ({ messages: [] }), { a: () => [] });
    expect((await peer.initialize('2024-11-05')).result?.capabilities).not.toHaveProperty('completions');
  });

  it('answers requests before initialize with an error but allows ping', async () => {
    const { peer } = serverAndPeer();
    expect((await peer.request('tools/list')).error).toEqual({
      code: ErrorCode.InvalidRequest,
      message: 'Server not initialized: send "initialize" before "tools/list"',
    });
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('refuses a second initialize', async () => {
    const { peer } = serverAndPeer();
    await peer.initialize('2025-06-18');
    const second = await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(second.error?.code).toBe(ErrorCode.InvalidRequest);
    expect((await peer.request('ping')).result).toEqual({});
    expect(peer.session.revision?.revision).toBe('2025-06-18');
  });

  it('answers initialize without a protocolVersion with -32602', async () => {
    const { peer } = serverAndPeer();
    const response = await peer.request('initialize', { capabilities: {} });
    expect(response.error).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Invalid params: initialize requires "protocolVersion" to be a string',
    });
    expect(peer.session.revision).toBeUndefined();
  });

  it('sends instructions and shapes serverInfo for the revision', async () => {
    const { peer } = serverAndPeer({
      instructions: 'Be brief',
      serverInfo: { name: 's', version: '2', title: 'S', description: 'd', icons: [{ src: 'https://x/i.png' }] },
    });
    const result = (await peer.initialize('2025-06-18')).result!;
    expect(result.instructions).toBe('Be brief');
    expect(result.serverInfo).toEqual({ name: 's', version: '2', title: 'S' });
  });
});
