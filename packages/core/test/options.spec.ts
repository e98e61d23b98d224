/**
 * createServer() options: its own (identity, services, providers, container) and the engine's
 * are checked when the server is built; each bad value throws TYPEMCP_ERR_INVALID_OPTION naming it.
 */
import { createServer, getMetadataStorage, InvalidOptionError, PROTOCOL_DEFAULTS, type ServerOptions } from '@typemcp/core';

beforeEach(() => getMetadataStorage().reset());

const base = { name: 'opts', version: '1.0.0', services: [] };

const bad: [string, Record<string, unknown>][] = [
  ['pageSize', { pageSize: 0 }],
  ['pageSize', { pageSize: 1.5 }],
  ['maxDepth', { maxDepth: 0 }],
  ['requestTimeoutMs', { requestTimeoutMs: -1 }],
  ['requestState.ttlMs', { requestState: { ttlMs: 0 } }],
  ['cache.lists.ttlMs', { cache: { lists: { ttlMs: 0.5 } } }],
  ['serverInfoInResults', { serverInfoInResults: 1 }],
  ['onError', { onError: true }],
  ['name', { name: undefined }],
  ['name', { name: '' }],
  ['version', { version: undefined }],
  ['version', { version: 2 }],
  ['instructions', { instructions: ['be nice'] }],
  ['services', { services: 'NotesService' }],
  ['services[0]', { services: [{}] }],
  ['providers', { providers: {} }],
  ['providers[0]', { providers: [{ provide: 'x' }] }],
  ['container', { container: { get: () => undefined } }],
  ['schema', { schema: 'draft-07' }],
  ['schema.inlineRefs', { schema: { inlineRefs: 'yes' } }],
  ['schema.unknownFields', { schema: { unknownFields: 'ignore' } }],
  ['schemaManifest', { schemaManifest: true }],
  ['schemaManifest', { schemaManifest: '' }],
];

describe('createServer options', () => {
  it.each(bad)('refuses a bad %s (%j) with TYPEMCP_ERR_INVALID_OPTION', (option, given) => {
    let thrown: unknown;
    try {
      createServer({ ...base, ...given } as ServerOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidOptionError);
    expect(thrown).toMatchObject({ code: 'TYPEMCP_ERR_INVALID_OPTION', option, message: expect.stringContaining(`"${option}"`) });
  });

  it('refuses an unknown transport in listen() the same way', async () => {
    await expect(createServer(base).listen({ transport: 'carrier-pigeon' } as never)).rejects.toMatchObject({
      code: 'TYPEMCP_ERR_INVALID_OPTION',
      option: 'transport',
    });
  });

  it('exports the defaults table the engine uses', () => {
    expect(createServer(base).engine.maxDepth).toBe(PROTOCOL_DEFAULTS.maxDepth);
  });
});
