// A fetch handler served on node:http, two ways: `hono` (@hono/node-server, how a Node deployment
// serves one) or `bridge` (a hand-written node:http -> Request -> Response bridge: read the body,
// build a web Request, write the Response back). typemcp-fetch.mjs, fetch-floor.mjs and sdk2.mjs
// use it, so every fetch handler is compared behind the same two adapters.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);

export function serveFetch(adapter, handler) {
  if (adapter === 'bridge') {
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
  } else if (adapter === 'hono') {
    const { serve } = require('@hono/node-server');
    serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
  } else {
    throw new Error(`unknown adapter ${adapter}: give hono or bridge`);
  }
}
