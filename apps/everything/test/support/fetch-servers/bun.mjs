/** The everything app, unchanged, served by createFetchHandler on Bun (Bun.serve). Prints `LISTENING <url>`. */
/* global Bun */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createFetchHandler } = require('@typemcp/http');
const { createEverythingServer } = require('../../../dist/everything.server.js');
const options = require('./options.cjs');

const handler = createFetchHandler(createEverythingServer(), options);
// idleTimeout 0: an SSE stream may stay quiet longer than Bun's default 10 s.
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  fetch: (request, srv) => handler(request, { remoteAddress: srv.requestIP(request)?.address }),
});
console.log(`LISTENING http://127.0.0.1:${server.port}${handler.path}`);
process.once(
  'SIGTERM',
  () =>
    void handler
      .close()
      .then(() => server.stop(true))
      .then(() => process.exit(0)),
);
