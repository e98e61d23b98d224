/** A client that stops reading an SSE response cannot make the server buffer without bound. */
import { request } from 'node:http';
import { MAX_BUFFERED_BYTES } from '../src/sse/sse-connection';
import { initialize, serve, type Served } from './support/http-fixture';

let s: Served;
beforeAll(async () => {
  s = await serve({ eventStore: false });
});
afterAll(() => s.listener.close(0));

it('drops the stream of a reader that stopped reading once the unsent bytes pass the cap, and keeps serving', async () => {
  const { sessionId } = await initialize(s.url);
  const total = 2 * MAX_BUFFERED_BYTES;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'flood', arguments: { count: total / (256 * 1024), size: 256 * 1024 } },
  });
  const url = new URL(s.url);
  const closed = await new Promise<{ received: number; complete: boolean }>((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
      },
      (res) => {
        let received = 0;
        res.once('data', (c: Buffer) => {
          received += c.length;
          res.pause(); // a client that stops reading
          setTimeout(() => res.resume(), 1500);
        });
        res.on('data', (c: Buffer) => (received += c.length));
        res.on('error', () => resolve({ received, complete: false }));
        res.on('close', () => resolve({ received, complete: res.complete }));
      },
    );
    // Dropped before the headers were even flushed: the client sees the socket close.
    req.on('error', () => resolve({ received: 0, complete: false }));
    req.end(body);
  });
  expect(closed.complete).toBe(false);
  expect(closed.received).toBeLessThan(total);
  expect((await fetch(`${s.base}/health`)).status).toBe(200);
}, 20000);
