/**
 * Keeps an MCP client connected over stdio while `typemcp dev` restarts the server under it.
 * Messages pass through line by line; the relay remembers the client's `initialize` request and
 * replays it to each new server process (its answer is not forwarded), answers requests that
 * were in flight at the restart with an error, and tells the client that the lists may have
 * changed. Clients of the 2026-07-28 revision have no handshake; nothing is replayed for them.
 * While a restart is under way the client's lines wait for the new process; while the server is
 * down (it crashed), every request is answered at once with an error that says why.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { downMessage, errorAnswer, isAnswer, isRequest, listChanges, parseMessages as parse, RESTARTED, type Message } from './json-rpc.js';

const REPLAY_ID = 'typemcp-dev-replay';
/** Client lines held during a restart at most; requests beyond are answered with an error. */
const MAX_HELD = 1000;

/** The process-facing half of a server: where the relay writes, and what it reads. */
export interface ServerPipes {
  stdin: Writable;
  stdout: Readable;
}

/** Relays one client (its stdin/stdout) to a sequence of server processes. */
export class StdioRelay {
  private server?: ServerPipes;
  private initialize?: string;
  private initialized?: string;
  /** Client requests sent to the current server and not answered yet, by id. */
  private readonly pending = new Map<string, string | number>();
  /** Client lines held back until a server (or the replayed handshake's answer) is there. */
  private held: string[] | undefined = [];
  /** Why there is no server, while it is down: requests are answered with it. */
  private downReason?: string;
  private replays = 0;
  private readonly lines: Interface;

  constructor(
    private readonly client: Readable,
    private readonly toClient: Writable,
    /** Called when the client closes its side (stdin ends). */
    onClientEnd: () => void,
  ) {
    this.lines = createInterface({ input: client, crlfDelay: Infinity }).on('line', (line) => this.fromClient(line));
    client.on('end', onClientEnd);
  }

  /** Connects a (new) server process; after a restart, replays the client's handshake to it. */
  attach(server: ServerPipes): void {
    this.server = server;
    this.downReason = undefined;
    createInterface({ input: server.stdout, crlfDelay: Infinity }).on('line', (line) => this.fromServer(server, line));
    if (!this.initialize) return this.release();
    const request = JSON.parse(this.initialize) as Message;
    this.held ??= [];
    server.stdin.write(`${JSON.stringify({ ...request, id: `${REPLAY_ID}-${++this.replays}` })}\n`);
  }

  /** The current server is being replaced: answer what it will not, hold what comes until the next one. */
  detach(): void {
    this.failPending(RESTARTED);
    this.server = undefined;
    this.held ??= [];
  }

  /** The server exited and will not be back before a change: answer every request, held or new, with `reason`. */
  down(reason: string): void {
    const message = downMessage(reason);
    this.failPending(message);
    this.server = undefined;
    this.downReason = message;
    for (const line of this.held ?? []) this.refuse(line, message);
    this.held = undefined;
  }

  /** Ends the current server's input (the client is gone). */
  end(): void {
    this.server?.stdin.end();
  }

  /** Stops reading the client, so that nothing keeps this process alive. */
  close(): void {
    this.lines.close();
    this.client.destroy();
  }

  private fromClient(line: string): void {
    if (this.held) {
      if (this.held.length < MAX_HELD) this.held.push(line);
      else this.refuse(line, 'typemcp dev: too many requests while the server restarts; send the request again');
    } else if (this.server) {
      this.forward(this.server, line);
    } else {
      this.refuse(line, this.downReason ?? 'typemcp dev: the server is not running');
    }
  }

  private forward(server: ServerPipes, line: string): void {
    for (const m of parse(line)) {
      if (m.method === 'initialize') this.initialize = line;
      else if (m.method === 'notifications/initialized') this.initialized = line;
      if (isRequest(m)) this.pending.set(String(m.id), m.id!);
    }
    server.stdin.write(`${line}\n`);
  }

  private refuse(line: string, message: string): void {
    for (const m of parse(line)) if (isRequest(m)) this.send(errorAnswer(m.id!, message));
  }

  private failPending(message: string): void {
    for (const id of this.pending.values()) this.send(errorAnswer(id, message));
    this.pending.clear();
  }

  /** Sends the held lines to the server. */
  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const line of held) this.forward(this.server!, line);
  }

  private fromServer(server: ServerPipes, line: string): void {
    if (server !== this.server) return;
    const messages = parse(line);
    const replayed = messages.find((m) => typeof m.id === 'string' && m.id.startsWith(REPLAY_ID) && !m.method);
    if (replayed) return this.resume(server, replayed);
    for (const m of messages) if (isAnswer(m)) this.pending.delete(String(m.id));
    this.toClient.write(`${line}\n`);
  }

  /** The new server answered the replayed `initialize`: finish the handshake, release held lines, announce changes. */
  private resume(server: ServerPipes, answer: Message): void {
    if (this.initialized) server.stdin.write(`${this.initialized}\n`);
    this.release();
    for (const change of listChanges(answer.result?.capabilities)) this.send(change);
  }

  private send(message: object): void {
    this.toClient.write(`${JSON.stringify(message)}\n`);
  }
}
