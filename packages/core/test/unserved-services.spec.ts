/** A declared @McpService() that no server serves is reported once, when a server starts listening. */
import { PassThrough } from 'node:stream';
import { createServer, getMetadataStorage, McpService, Tool, type DefinitionWarning, type ServerOptions, type TypeMcpServer } from '@typemcp/core';

beforeEach(() => getMetadataStorage().reset());

const open: TypeMcpServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Builds a server and starts it on in-process stdio pipes; resolves with the warnings it reported. */
async function listen(options: Partial<ServerOptions>): Promise<DefinitionWarning[]> {
  const warnings: DefinitionWarning[] = [];
  const server = createServer({ name: 'w', version: '1', onWarning: (w) => warnings.push(w), ...options });
  open.push(server);
  await server.listen({ transport: 'stdio', input: new PassThrough(), output: new PassThrough() });
  return warnings;
}

function service(name: string, deferred = false) {
  @McpService({ deferred })
  class S {
    @Tool({ description: 'd', name: `${name}_tool` })
    t() {
      return name;
    }
  }
  Object.defineProperty(S, 'name', { value: name });
  return S;
}

it('names a declared service left out of createServer({ services }), once per process', async () => {
  const Notes = service('Notes');
  service('Bookmarks');
  service('Dynamic', true);
  const first = await listen({ services: [Notes] });
  expect(first).toEqual([
    {
      code: 'TYPEMCP_WARN_UNSERVED_SERVICE',
      message: expect.stringMatching(/^Bookmarks is declared with @McpService\(\) but no server serves it; add it to createServer\(\{ services \}\)/),
    },
  ]);
  expect(await listen({ services: [Notes] })).toEqual([]);
});

it('does not report a service another server in the process serves, or one added at run time', async () => {
  const Shared = service('Shared');
  const Later = service('Later');
  service('Orphan');
  open.push(createServer({ name: 'other', version: '1', services: [Shared] }));
  const server = createServer({ name: 'w', version: '1', services: [], onWarning: () => undefined });
  open.push(server);
  server.addService(Later);
  const warnings = await listen({ services: [] });
  expect(warnings.map((w) => w.message.split(' ')[0])).toEqual(['Orphan']);
});

it('reports nothing when services are left to default to every declared one', async () => {
  service('A');
  service('B');
  expect(await listen({})).toEqual([]);
});

it('writes one line per warning to stderr by default', async () => {
  service('Forgotten');
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const server = createServer({ name: 'w', version: '1', services: [] });
    open.push(server);
    await server.listen({ transport: 'stdio', input: new PassThrough(), output: new PassThrough() });
  } finally {
    spy.mockRestore();
  }
  expect(lines).toEqual([expect.stringMatching(/^\[typemcp\] warning TYPEMCP_WARN_UNSERVED_SERVICE: Forgotten is declared .*\n$/)]);
});
