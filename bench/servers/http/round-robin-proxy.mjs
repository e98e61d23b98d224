// For bench/scale-out.mjs: a round-robin HTTP proxy in its own process; every request goes to the
// next upstream (argv: their ports) over keep-alive connections, the response streamed through.
// A request whose kept-alive connection the upstream had just closed is sent again once.
import { Agent, createServer, request } from 'node:http';
import { ready } from './ready.mjs';

const upstreams = process.argv.slice(2).map(Number);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let next = 0;

function forward(req, res, body, port, retried) {
  const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers, agent }, (upRes) => {
    res.writeHead(upRes.statusCode, upRes.headers);
    upRes.pipe(res);
  });
  up.on('error', (error) => {
    if (!retried && !res.headersSent && error.code === 'ECONNRESET') forward(req, res, body, port, true);
    else res.destroy();
  });
  up.end(body);
}

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  forward(req, res, Buffer.concat(chunks), upstreams[next++ % upstreams.length], false);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => ready(server.address().port));
