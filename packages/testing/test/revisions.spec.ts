import { createServer } from '@typemcp/core';
import { textOf } from '@typemcp/testing';
import type { ElicitParams } from '@typemcp/testing';
import { connect, fx } from './support';

const confirmForm = { type: 'object', properties: { ok: { type: 'boolean', description: 'Go ahead?' } }, required: ['ok'] };

// 2026-07-28 has no handshake: the same expectations hold of what server/discover tells.
describe.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])('at revision %s', (revision) => {
  const since = (first: string) => revision >= first;

  it('connects at that revision and learns who the server is', async () => {
    const client = await connect({ revision, name: 'shop', version: '1.2.3', instructions: 'Be nice' });
    expect(client.revision).toBe(revision);
    expect(client.serverInfo).toEqual({ name: 'shop', version: '1.2.3' });
    expect(client.instructions).toBe('Be nice');
    expect(client.serverCapabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect('completions' in client.serverCapabilities).toBe(since('2025-03-26'));
  });

  it('gets tool definitions and results shaped for the revision', async () => {
    const client = await connect({ revision });
    const [add] = await client.listTools();
    expect('title' in add).toBe(since('2025-06-18'));
    expect('outputSchema' in add).toBe(since('2025-06-18'));
    expect('annotations' in add).toBe(since('2025-03-26'));
    const result = await client.callTool('add', { a: 2, b: 3 });
    expect(textOf(result)).toBe('{"sum":5}');
    expect(result.structuredContent).toEqual(since('2025-06-18') ? { sum: 5 } : undefined);
  });

  it('is asked for elicitation only where the revision has it, in that revision’s shape', async () => {
    const asked: ElicitParams[] = [];
    const client = await connect({ revision, onElicit: (params) => (asked.push(params), { action: 'accept', content: { ok: false } }) });
    const result = await client.callTool('confirm');
    if (!since('2025-06-18')) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`Elicitation does not exist in protocol revision ${revision}.`);
      expect(asked).toEqual([]);
      return;
    }
    expect(textOf(result)).toBe('ok=false');
    const expected = since('2025-11-25')
      ? { mode: 'form', message: 'Proceed?', requestedSchema: confirmForm }
      : { message: 'Proceed?', requestedSchema: confirmForm };
    expect(asked).toEqual([expected]);
  });
});

describe('revision negotiation', () => {
  it('refuses a revision the kit cannot speak', async () => {
    await expect(connect({ revision: '1999-01-01' })).rejects.toMatchObject({
      code: 'TYPEMCP_ERR_UNSUPPORTED_REVISION',
      message: expect.stringContaining('2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28'),
    });
  });

  it('fails when the server answers initialize with another revision, and leaves no session open', async () => {
    const server = createServer({ name: 'old', version: '1', services: [fx.ShopService] });
    server.engine.setMethodHandler('initialize', () => ({ protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 'old', version: '1' } }), {
      replace: true,
    });
    await expect(connect({ server, revision: '2025-06-18' })).rejects.toThrow(
      'The server answered initialize with revision 2024-11-05, not the requested 2025-06-18',
    );
    expect(server.engine.openSessions.size).toBe(0);
    await server.close();
  });
});
