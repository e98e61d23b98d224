/**
 * One request through `typemcp dev`'s HTTP relay to the server process: the body is read (to
 * know the JSON-RPC requests it holds), the session id is mapped to the current process's, and
 * the answer streams back. A request the process cannot answer (it restarted or crashed under
 * it) gets a JSON-RPC error for each of its requests instead of a broken connection.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { DevSessions } from './dev-sessions.js';
import { errorAnswer, isAnswer, isRequest, parseMessages, RESTARTED, sseEvent, type Message } from './json-rpc.js';
import type { PublicListener, Target } from './relay-types.js';

/** What a request needs from the relay (http-relay.ts): the current process and the sessions. */
export interface RelayState {
  /** Which server process is current. */
  readonly generation: number;
  readonly sessions: DevSessions;
  /** Where requests to `listener` go now (waits during a restart; rejects while the server is down). */
  target(listener: PublicListener): Promise<Target>;
}

/** A body larger than this is refused (the server's own limit is lower). */
const MAX_BODY = 32 * 1024 * 1024;

/** Reads a request body, or undefined when it is larger than `max` (default {@link MAX_BODY}). */
export function readBody(req: IncomingMessage, max = MAX_BODY): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Answers the request ourselves: an error for each JSON-RPC request, or a 503 when it holds none. */
function refuse(res: ServerResponse, messages: Message[], batch: boolean, why: string): void {
  if (res.headersSent) return void res.end();
  const answers = messages.filter(isRequest).map((m) => errorAnswer(m.id!, why));
  if (!answers.length) return void res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end(`${why}\n`);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(batch ? answers : answers[0]));
}

/** Forwards `req` to the server process behind `listener`, once more if it restarted before the request reached it. */
export async function forward(relay: RelayState, listener: PublicListener, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = req.method === 'POST' ? await readBody(req).catch(() => Buffer.alloc(0)) : undefined;
  if (body === undefined && req.method === 'POST') return void res.writeHead(413, { 'content-type': 'text/plain' }).end('Payload too large\n');
  const text = body?.toString() ?? '';
  const messages = parseMessages(text);
  const batch = text.trimStart().startsWith('[');
  for (let attempt = 0; ; attempt++) {
    let target: Target | undefined;
    const headers: IncomingHttpHeaders = { ...req.headers };
    const clientId = req.headers['mcp-session-id'];
    const session = typeof clientId === 'string' ? relay.sessions.get(clientId) : undefined;
    try {
      target = await relay.target(listener);
      if (session && req.method === 'DELETE' && session.generation !== target.generation) {
        relay.sessions.delete(session);
        return void res.writeHead(200).end();
      }
      if (session) headers['mcp-session-id'] = await relay.sessions.upstreamFor(session, target, req.headers);
    } catch (error) {
      // The process restarted while the session was taken back: once more, with the next one.
      if (attempt === 0 && target && relay.generation !== target.generation) continue;
      return refuse(res, messages, batch, error instanceof Error ? error.message : String(error));
    }
    const outcome = await send(relay, listener, target, req, res, { headers, body, messages, batch });
    if (outcome !== 'retry' || attempt > 0) return;
  }
}

interface Outgoing {
  headers: IncomingHttpHeaders;
  body?: Buffer;
  messages: Message[];
  batch: boolean;
}

/** One attempt; 'retry' when the process was gone before it took the request and a newer one replaces it. */
function send(
  relay: RelayState,
  listener: PublicListener,
  target: Target,
  req: IncomingMessage,
  res: ServerResponse,
  out: Outgoing,
): Promise<'done' | 'retry'> {
  return new Promise((resolve) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: out.headers });
    res.on('close', () => upstream.destroy());
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return resolve('done');
      if (error.code === 'ECONNREFUSED' && relay.generation !== target.generation) return resolve('retry');
      refuse(res, out.messages, out.batch, RESTARTED);
      resolve('done');
    });
    upstream.on('response', (answer) => {
      const headers = relay.sessions.answered(req, answer, out, listener, target);
      if (relay.sessions.isStandalone(req, answer)) {
        relay.sessions.keepStream(req, res, answer, headers);
        return resolve('done');
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      const pending = new Set(out.messages.filter(isRequest).map((m) => String(m.id)));
      const idsById = new Map(out.messages.filter(isRequest).map((m) => [String(m.id), m.id!]));
      const sse = String(answer.headers['content-type']).startsWith('text/event-stream');
      let partial = '';
      answer.on('data', (chunk: Buffer) => {
        res.write(chunk);
        if (!sse || !pending.size) return;
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('data:')) for (const m of parseMessages(line.slice(5))) if (isAnswer(m)) pending.delete(String(m.id));
      });
      answer.on('close', () => {
        // Cut before the end: the process restarted or crashed. An SSE stream gets an error for each unanswered request.
        if (!answer.complete && sse) for (const id of pending) res.write(sseEvent(errorAnswer(idsById.get(id)!, RESTARTED)));
        if (!answer.complete && !sse) res.destroy();
        else res.end();
        resolve('done');
      });
    });
    upstream.end(out.body);
  });
}
