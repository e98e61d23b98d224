import type { JsonObject } from '@typemcp/protocol';
import { serverAndPeer } from './support/memory-peer';

const icon = [{ src: 'https://example.com/i.png', mimeType: 'image/png' }];

async function session(revision: string) {
  const { server, peer } = serverAndPeer();
  const { registry } = server;
  registry.addTool(
    {
      name: 'rich',
      title: 'Rich',
      description: 'd',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      annotations: { readOnlyHint: true },
      icons: icon,
      _meta: { 'example.com/x': 1 },
    },
    () => ({
      content: [
        { type: 'text', text: 'hello', annotations: { priority: 1, lastModified: '2025-01-01T00:00:00Z' }, _meta: { k: 1 } },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'mem://doc', name: 'doc', title: 'Doc', description: 'A document', icons: icon },
        { type: 'resource', resource: { uri: 'mem://e', text: 'e', _meta: { k: 2 } } },
      ],
      structuredContent: { n: 1 },
    }),
  );
  registry.addTool({ name: 'mirrored', description: 'd', inputSchema: { type: 'object' } }, () => ({
    content: [{ type: 'text', text: '{"n":2}' }],
    structuredContent: { n: 2 },
  }));
  registry.addResource({ uri: 'mem://r', name: 'r', title: 'R', icons: icon, annotations: { lastModified: '2025-01-01T00:00:00Z', priority: 0.5 } }, (uri) => ({
    contents: [{ uri, text: 'r', _meta: { k: 3 } }],
  }));
  registry.addPrompt({ name: 'p', title: 'P', icons: icon, arguments: [{ name: 'a', title: 'A' }] }, () => ({
    messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }],
  }));
  await peer.initialize(revision);
  const call = async (name: string) => (await peer.request('tools/call', { name })).result as JsonObject;
  const list = async (method: string, key: string) => ((await peer.request(method)).result as JsonObject)[key] as JsonObject[];
  return { peer, call, list };
}

describe('results shaped for the negotiated revision', () => {
  it('gives 2025-11-25 everything as written', async () => {
    const { call, list } = await session('2025-11-25');
    const [tool] = await list('tools/list', 'tools');
    expect(Object.keys(tool).sort()).toEqual(['_meta', 'annotations', 'description', 'icons', 'inputSchema', 'name', 'outputSchema', 'title']);
    const result = await call('rich');
    expect((result.content as JsonObject[]).map((c) => c.type)).toEqual(['text', 'audio', 'resource_link', 'resource']);
    expect(result.structuredContent).toEqual({ n: 1 });
  });

  it('gives 2025-06-18 titles, structured output and links but no icons', async () => {
    const { call, list } = await session('2025-06-18');
    const [tool] = await list('tools/list', 'tools');
    expect(Object.keys(tool).sort()).toEqual(['_meta', 'annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
    const result = await call('rich');
    expect((result.content as JsonObject[])[2]).toEqual({ type: 'resource_link', uri: 'mem://doc', name: 'doc', title: 'Doc', description: 'A document' });
    const [resource] = await list('resources/list', 'resources');
    expect(resource).toEqual({ uri: 'mem://r', name: 'r', title: 'R', annotations: { lastModified: '2025-01-01T00:00:00Z', priority: 0.5 } });
  });

  it('gives 2025-03-26 annotations and audio, no titles, _meta, links or structured output', async () => {
    const { call, list } = await session('2025-03-26');
    const [tool] = await list('tools/list', 'tools');
    expect(tool).toEqual({ name: 'rich', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    const result = await call('rich');
    expect(result).not.toHaveProperty('structuredContent');
    expect(result.content).toEqual([
      { type: 'text', text: 'hello', annotations: { priority: 1 } },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'text', text: 'Resource: Doc <mem://doc> - A document' },
      { type: 'resource', resource: { uri: 'mem://e', text: 'e' } },
      { type: 'text', text: '{"n":1}' },
    ]);
    const [prompt] = await list('prompts/list', 'prompts');
    expect(prompt).toEqual({ name: 'p', arguments: [{ name: 'a' }] });
  });

  it('gives 2024-11-05 text instead of audio and never duplicates mirrored structured output', async () => {
    const { peer, call, list } = await session('2024-11-05');
    const [tool] = await list('tools/list', 'tools');
    expect(tool).toEqual({ name: 'rich', description: 'd', inputSchema: { type: 'object' } });
    const content = (await call('rich')).content as JsonObject[];
    expect(content[1]).toEqual({ type: 'text', text: '[audio (audio/wav) omitted: not supported by protocol revision 2024-11-05]' });
    expect(await call('mirrored')).toEqual({ content: [{ type: 'text', text: '{"n":2}' }] });
    expect(((await peer.request('resources/read', { uri: 'mem://r' })).result as JsonObject).contents).toEqual([{ uri: 'mem://r', text: 'r' }]);
    const prompt = (await peer.request('prompts/get', { name: 'p' })).result as JsonObject;
    expect((prompt.messages as JsonObject[])[0].content).toMatchObject({ type: 'text' });
  });
});
