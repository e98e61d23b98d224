/**
 * Keeps an MCP client connected over stdio while `typemcp dev` restarts the server under it.
 * Messages pass through line by line; the relay remembers the client's `initialize` request and
 * replays it to each new server process (its answer is not forwarded), answers requests that
 * were in flight at the restart with an error, and tells the client that the lists may have
 * changed. Clients of the 2026-07-28 revision have no handshake; nothing is replayed for them.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

type Message = { id?: string | number | null; method?: string; result?: { capabilities?: Record<string, { listChanged?: boolean } | undefined> } };

const REPLAY_ID = 'typemcp-dev-replay';
/** JSON-RPC "internal error": what a request lost to a restart is answered with. */
const RESTARTED = -32603;

function parse(line: string): Message[] {
  try {
    const value: unknown = JSON.parse(line);
    return (Array.isArray(value) ? value : [value]).filter((m): m is Message => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

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
  /** Client lines held back until the replayed handshake is answered. */
  private held: string[] | undefined;
  private replays = 0;
  /** Whether the client has sent anything. */
  private heard = false;

  constructor(
    client: Readable,
    private readonly toClient: Writable,
    /** Called when the client closes its side (stdin ends); `hadClient`: it sent something before. */
    onClientEnd: (hadClient: boolean) => void,
  ) {
    createInterface({ input: client, crlfDelay: Infinity }).on('line', (line) => this.fromClient(line));
    client.on('end', () => onClientEnd(this.heard));
  }

  /** Connects a (new) server process; after a restart, replays the client's handshake to it. */
  attach(server: ServerPipes): void {
    this.server = server;
    createInterface({ input: server.stdout, crlfDelay: Infinity }).on('line', (line) => this.fromServer(server, line));
    if (!this.initialize) return;
    const request = JSON.parse(this.initialize) as Message;
    this.held = [];
    server.stdin.write(`${JSON.stringify({ ...request, id: `${REPLAY_ID}-${++this.replays}` })}\n`);
  }

  /** The current server is going away: answer what it will not. */
  detach(): void {
    for (const id of this.pending.values()) {
      this.send({ jsonrpc: '2.0', id, error: { code: RESTARTED, message: 'typemcp dev: the server restarted before answering; send the request again' } });
    }
    this.pending.clear();
    this.server = undefined;
  }

  /** Ends the current server's input (the client is gone). */
  end(): void {
    this.server?.stdin.end();
  }

  private fromClient(line: string): void {
    this.heard = true;
    for (const m of parse(line)) {
      if (m.method === 'initialize') this.initialize = line;
      else if (m.method === 'notifications/initialized') this.initialized = line;
      if (m.method && m.id !== undefined && m.id !== null) this.pending.set(String(m.id), m.id);
    }
    if (this.held) this.held.push(line);
    else this.server?.stdin.write(`${line}\n`);
  }

  private fromServer(server: ServerPipes, line: string): void {
    if (server !== this.server) return;
    const messages = parse(line);
    const replayed = messages.find((m) => typeof m.id === 'string' && m.id.startsWith(REPLAY_ID) && !m.method);
    if (replayed) return this.resume(server, replayed);
    for (const m of messages) if (!m.method && m.id !== undefined && m.id !== null) this.pending.delete(String(m.id));
    this.toClient.write(`${line}\n`);
  }

  /** The new server answered the replayed `initialize`: finish the handshake, release held lines, announce changes. */
  private resume(server: ServerPipes, answer: Message): void {
    if (this.initialized) server.stdin.write(`${this.initialized}\n`);
    for (const line of this.held ?? []) server.stdin.write(`${line}\n`);
    this.held = undefined;
    const capabilities = answer.result?.capabilities ?? {};
    for (const kind of ['tools', 'resources', 'prompts']) {
      if (capabilities[kind]?.listChanged) this.send({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
    }
  }

  private send(message: object): void {
    this.toClient.write(`${JSON.stringify(message)}\n`);
  }
}
