// The express floor of an idle SSE session: an express 5 route holding an SSE response open,
// nothing else. Separates express's per-request objects from TypeMCP's own session state.
import express from 'express';
import { ready } from './ready.mjs';

const app = express();
app.get('/sse', (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write('event: endpoint\ndata: /messages?sessionId=floor\n\n');
});
const server = app.listen(0, '127.0.0.1', () => ready(server.address().port));
