/**
 * The preview of a stdio server: a stdio server has one client (the one on `typemcp dev`'s own
 * stdin, or nobody when it runs in a terminal), so the preview page gets a server process of its
 * own, as the MCP Inspector does, and this is the Streamable HTTP endpoint in front of it. Each
 * `initialize` the page sends (it connects again after each change) starts a new process (the
 * sources as they are now) and ends the previous one; requests are written to its stdin as lines,
 * each POST is answered with the answers to its requests (JSON), and what the server sends on
 * its own (notifications, requests to the client) goes to the page's GET stream.
 *
 * One session at a time, for one local page: nothing here is meant for another client.
 */
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { errorAnswer, isAnswer, isRequest, parseMessages, sseEvent, type Message } from './json-rpc.js';

/** What the page gets while its server is starting or after it exited. */
const GONE = 'typemcp dev: the preview server process exited; see the terminal for why';
/** How long a tool call of the page may take. */
const CALL_TIMEOUT_MS = 5 * 60_000;

interface Waiting {
  /** The requests of one POST not answered yet: their ids as keys, as sent. */
  ids: Map<string, string | number>;
  answers: Message[];
  done(answers: Message[]): void;
}

interface PreviewProcess {
  readonly id: string;
  readonly child: ChildProcess;
  readonly waiting: Set<Waiting>;
  stream?: ServerResponse;
  exited: boolean;
}

/** Starts a server process for the preview, its stdio piped. */
export type PreviewSpawner = () => ChildProcess;

/** The preview's own server process behind `/mcp` (see the header). */
export class StdioPreview {
  private current?: PreviewProcess;

  constructor(private readonly spawnServer: PreviewSpawner) {}

  /** Handles one request to the preview's `/mcp` (`body`: a POST's, already read). */
  handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const session = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
      const messages = parseMessages(body);
      if (!messages.length) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Expected JSON-RPC messages\n');
      if (messages.some((m) => m.method === 'initialize')) return this.initialize(messages, body, res);
      const running = this.forSession(session, res);
      if (running) this.post(running, messages, body.trimStart().startsWith('['), res);
      return;
    }
    const running = this.forSession(session, res);
    if (!running) return;
    if (req.method === 'DELETE') {
      this.stop();
      return void res.writeHead(200).end();
    }
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    running.stream?.end();
    running.stream = res;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': running.id });
    res.flushHeaders();
    res.on('close', () => {
      if (running.stream === res) running.stream = undefined;
    });
  }

  /** Ends the preview's process (a change restarts the sources: the page connects again). */
  stop(): void {
    const running = this.current;
    this.current = undefined;
    if (!running) return;
    running.stream?.end();
    this.fail(running, GONE);
    running.child.kill('SIGTERM');
    setTimeout(() => running.exited || running.child.kill('SIGKILL'), 3000).unref();
  }

  private forSession(session: string | string[] | undefined, res: ServerResponse): PreviewProcess | undefined {
    if (this.current && session === this.current.id && !this.current.exited) return this.current;
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(errorAnswer(0, 'typemcp dev: no such preview session; connect again')));
    return undefined;
  }

  private initialize(messages: Message[], body: string, res: ServerResponse): void {
    this.stop();
    const child = this.spawnServer();
    const running: PreviewProcess = { id: randomUUID(), child, waiting: new Set(), exited: false };
    this.current = running;
    child.stdin!.on('error', () => undefined);
    child.on('exit', () => {
      running.exited = true;
      this.fail(running, GONE);
      running.stream?.end();
    });
    createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (line) => this.fromServer(running, line));
    this.post(running, messages, body.trimStart().startsWith('['), res);
  }

  private post(running: PreviewProcess, messages: Message[], batch: boolean, res: ServerResponse): void {
    const requests = messages.filter(isRequest);
    running.child.stdin!.write(`${JSON.stringify(batch ? messages : messages[0])}\n`);
    if (!requests.length) return void res.writeHead(202).end();
    const timer = setTimeout(() => this.answerRest(waiting, 'typemcp dev: the preview server did not answer in time'), CALL_TIMEOUT_MS);
    const waiting: Waiting = {
      ids: new Map(requests.map((m) => [String(m.id), m.id!])),
      answers: [],
      done: (answers) => {
        clearTimeout(timer);
        running.waiting.delete(waiting);
        if (res.writableEnded) return;
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': running.id }).end(JSON.stringify(batch ? answers : answers[0]));
      },
    };
    running.waiting.add(waiting);
    res.on('close', () => running.waiting.delete(waiting));
  }

  private fromServer(running: PreviewProcess, line: string): void {
    for (const message of parseMessages(line)) {
      const waiting = isAnswer(message) ? [...running.waiting].find((w) => w.ids.has(String(message.id))) : undefined;
      if (waiting) {
        waiting.ids.delete(String(message.id));
        waiting.answers.push(message);
        if (!waiting.ids.size) waiting.done(waiting.answers);
      } else if (running.stream) {
        running.stream.write(sseEvent(message));
      } else if (isRequest(message)) {
        // Sampling, elicitation... with no stream to ask the page on: the server hears why at once.
        running.child.stdin!.write(`${JSON.stringify(errorAnswer(message.id!, 'typemcp dev: the preview has no stream open for server requests'))}\n`);
      }
    }
  }

  private fail(running: PreviewProcess, why: string): void {
    for (const waiting of [...running.waiting]) this.answerRest(waiting, why);
  }

  private answerRest(waiting: Waiting, why: string): void {
    waiting.done([...waiting.answers, ...[...waiting.ids.values()].map((id) => errorAnswer(id, why) as Message)]);
  }
}
