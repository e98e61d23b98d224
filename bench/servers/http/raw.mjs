// The floor: node:http, read the body, JSON.parse, answer a fixed CallToolResult with the sum. Nothing else.
// GET /sse holds an SSE response open: the per-connection floor for the legacy-session heap figure.
import { createServer } from 'node:http';
import { ready } from './ready.mjs';

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/sse') {
    // The floor of an idle SSE session: node:http's own request, response and socket, held open.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('event: endpoint\ndata: /messages?sessionId=raw\n\n');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const { a, b } = msg.params.arguments;
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: String(a + b) }] } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => ready(server.address().port));
