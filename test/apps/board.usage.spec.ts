import * as path from 'node:path';
import { bundleApp } from '@typemcp/apps';
import { APPS_HOST_EXTENSIONS, createTestClient, renderApp } from '@typemcp/testing';
import { server } from './board.server';

// What `typemcp build` does for src/**/*.app.html: one self-contained file beside the server.
beforeAll(() => bundleApp({ entry: path.join(__dirname, 'board.app.html'), outFile: path.join(__dirname, 'board.html') }));

it('renders the board for a host and answers a client without views in text', async () => {
  const host = await createTestClient({ server, clientExtensions: { ...APPS_HOST_EXTENSIONS } });
  const board = await renderApp(host, 'show_board');
  expect(board.problems).toEqual([]);
  expect(board.view?.meta).toEqual({ csp: { connectDomains: [] }, permissions: { clipboardWrite: {} }, prefersBorder: true });
  // What the board's button does, through the host:
  expect((await board.callAsApp('add_task', { title: 'Write the docs' })).structuredContent).toEqual({ tasks: ['Write the docs'] });

  const plain = await createTestClient({ server, revision: '2026-07-28' });
  expect((await plain.listTools()).map((t) => t.name)).toEqual(['show_board']);
  expect((await renderApp(plain, 'show_board')).fallbackText).toBe('1 tasks: Write the docs');
  await plain.close();
  await host.close();
});
