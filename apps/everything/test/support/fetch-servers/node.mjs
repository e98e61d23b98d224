/**
 * The everything app, unchanged, served by createFetchHandler on Node: `node node.mjs` serves it
 * as a plain fetch function (through @hono/node-server's node:http bridge), `node node.mjs hono`
 * through a Hono app with the README's recipe. Prints `LISTENING <url>` once it listens.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createFetchHandler } = require('@typemcp/http');
const { serve } = require('@hono/node-server');
const { createEverythingServer } = require('../../../dist/everything.server.js');
const options = require('./options.cjs');

const handler = createFetchHandler(createEverythingServer(), options);
let fetch = (request, env) => handler(request, { remoteAddress: env.incoming.socket.remoteAddress });
if (process.argv[2] === 'hono') {
  const { Hono } = require('hono');
  const app = new Hono();
  app.all('/mcp', (c) => handler(c.req.raw));
  app.get('/livez', (c) => handler(c.req.raw));
  fetch = app.fetch;
}
const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`LISTENING http://127.0.0.1:${info.port}${handler.path}`));
process.once('SIGTERM', () => void handler.close().then(() => (server.closeAllConnections?.(), process.exit(0))));
