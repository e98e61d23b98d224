// Ours as a web-standard handler: a ProtocolServer with `add` behind createFetchHandler, stateless.
// argv[2]: `hono` (through @hono/node-server, how a Node deployment serves a fetch handler) or
// `bridge` (the same hand-written node:http -> Request -> Response bridge as sdk2.mjs, so the two
// fetch handlers are compared on equal terms).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { registerAdd } from '../add-tool.mjs';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
const protocol = require('../../../packages/protocol/dist/index.js');
const { createFetchHandler } = require('../../../packages/http/dist/fetch/index.js');

const engine = new protocol.ProtocolServer({ serverInfo: { name: 'typemcp-fetch', version: '1.0.0' } });
registerAdd(engine, protocol);
const handler = createFetchHandler(engine, { sessions: false, keepAliveMs: 0 });

if (process.argv[2] === 'bridge') {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
    const out = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(out);
  });
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else {
  const { serve } = require('@hono/node-server');
  serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
}
