/**
 * Drives a real ProtocolServer session through its Transport interface, in memory: the engine
 * is the one under test, only the pipe is replaced. Messages the server sends are parsed and kept.
 */
import { ProtocolServer, type JsonObject, type ProtocolServerOptions, type Session } from '@typemcp/protocol';

export type Message = JsonObject & { id?: string | number | null; method?: string; result?: JsonObject; error?: JsonObject; params?: JsonObject };

export class MemoryPeer {
  /** Every message received, batches flattened. */
  readonly received: Message[] = [];
  /** Every frame as written by the session (a batch is one frame). */
  readonly frames: string[] = [];
  readonly session: Session;
  private nextId = 1000;
  private waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(readonly server: ProtocolServer) {
    this.session = server.connect({
      send: (text) => {
        this.frames.push(text);
        const parsed = JSON.parse(text) as Message | Message[];
        for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.deliver(m);
      },
    });
  }

  private deliver(message: Message): void {
    this.received.push(message);
    this.waiters = this.waiters.filter((w) => (w.test(message) ? (w.resolve(message), false) : true));
  }

  /** Sends raw text (one frame). */
  sendText(text: string): void {
    this.session.receive(text);
  }

  /** Sends one JSON value. */
  send(value: unknown): void {
    this.session.receiveValue(value);
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor(test: (m: Message) => boolean, timeoutMs = 2000): Promise<Message> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Sends a request and resolves with its response message (result or error). */
  async request(method: string, params?: JsonObject, id: string | number = this.nextId++): Promise<Message> {
    const message: JsonObject = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  /** Completes the handshake at `revision`. */
  async initialize(revision = '2025-11-25', capabilities: JsonObject = {}): Promise<Message> {
    const response = await this.request('initialize', {
      protocolVersion: revision,
      capabilities,
      clientInfo: { name: 'memory-peer', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  notifications(method: string): Message[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }
}

const servers: ProtocolServer[] = [];

/** A server with the given options and a fresh peer on it; closed after the test. */
export function serverAndPeer(options: Partial<ProtocolServerOptions> = {}): { server: ProtocolServer; peer: MemoryPeer } {
  const server = new ProtocolServer({ serverInfo: { name: 'test', version: '1.0.0' }, onError: () => undefined, ...options });
  servers.push(server);
  return { server, peer: new MemoryPeer(server) };
}

// Pending work and server->client requests must not outlive their test.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Resolves after the current macrotask queue (lets setImmediate-scheduled work run). */
export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
