/** listen(): HTTP comes from the optional @typemcp/http, loaded only when asked for. */
import { createServer, getMetadataStorage } from '@typemcp/core';

beforeEach(() => getMetadataStorage().reset());

it('serves HTTP through @typemcp/http and closes it', async () => {
  const server = createServer({ name: 'h', version: '1', services: [] });
  const listener = await server.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
  expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(await (await fetch(listener.url.replace(/mcp$/, 'health'))).json()).toEqual({ status: 'ok' });
  await listener.close(0);
});

it('says what to install when @typemcp/http is missing', async () => {
  jest.resetModules();
  jest.doMock('@typemcp/http', () => {
    throw Object.assign(new Error("Cannot find module '@typemcp/http' from 'create-server.ts'"), { code: 'MODULE_NOT_FOUND' });
  });
  const core = jest.requireActual<typeof import('@typemcp/core')>('@typemcp/core');
  const server = core.createServer({ name: 'h', version: '1', services: [] });
  await expect(server.listen({ transport: 'http' })).rejects.toMatchObject({
    code: 'TYPEMCP_ERR_HTTP_NOT_INSTALLED',
    message: expect.stringContaining('npm install @typemcp/http'),
  });
  await expect(server.listen({ transport: 'carrier-pigeon' } as never)).rejects.toThrow(/use 'stdio' or 'http'/);
  jest.dontMock('@typemcp/http');
});
