/** The relay's own requests to the server process (a replayed handshake), and the headers it passes on. */
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { parseMessages, type Message } from './json-rpc.js';

const CALL_TIMEOUT_MS = 10_000;
/** Headers a proxy does not pass on (they describe one connection). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding'];

/** A whole answer of the server process to one of the relay's own requests. */
export function call(
  port: number,
  path: string,
  headers: OutgoingHttpHeaders,
  body: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers, timeout: CALL_TIMEOUT_MS }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The messages of a JSON or SSE body. */
export function messagesOf(text: string): Message[] {
  if (text.trimStart().startsWith('{') || text.trimStart().startsWith('[')) return parseMessages(text);
  return text.split('\n').flatMap((line) => (line.startsWith('data:') ? parseMessages(line.slice(5)) : []));
}

/** What a replay needs from a client's request: who it is and where it was sent. */
export function replayHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const picked: OutgoingHttpHeaders = {};
  for (const name of ['host', 'origin', 'authorization', 'mcp-protocol-version']) if (headers[name] !== undefined) picked[name] = headers[name];
  return picked;
}

/** Without the hop-by-hop headers. */
export function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const copy: OutgoingHttpHeaders = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}
