/** The everything app, unchanged, served by createFetchHandler on Deno (Deno.serve). Prints `LISTENING <url>`. */
/* global Deno */
import { createRequire } from 'node:module';
import process from 'node:process';

const require = createRequire(import.meta.url);
const { createFetchHandler } = require('@typemcp/http');
const { createEverythingServer } = require('../../../dist/everything.server.js');
const options = require('./options.cjs');

const handler = createFetchHandler(createEverythingServer(), options);
const server = Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`LISTENING http://127.0.0.1:${port}${handler.path}`) },
  (request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname }),
);
process.once(
  'SIGTERM',
  () =>
    void handler
      .close()
      .then(() => server.shutdown())
      .then(() => process.exit(0)),
);
