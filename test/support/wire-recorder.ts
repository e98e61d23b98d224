/**
 * Every JSON-RPC message of one session, in both directions and in wire order, with the queries
 * end-to-end tests ask of it. The stdio and HTTP recorders feed it from the raw bytes the server
 * wrote (before any SDK parsing), so what the schemas check is exactly what was sent.
 */
import type { JsonObject, WireEntry } from './spec-schemas';

type Listener = (entry: WireEntry) => void;

export class WireRecorder {
  /** Every message in both directions, in order. */
  readonly wire: WireEntry[] = [];
  private readonly started = Date.now();
  private listeners: Listener[] = [];

  private pendingLine = '';

  /**
   * Records the server's stdout as it arrives: newline-delimited JSON messages (a line that does
   * not parse is kept as `{ __unparseableLine }`, so schema checks fail on it).
   */
  protected tapStdout(text: string): void {
    this.pendingLine += text;
    let nl: number;
    while ((nl = this.pendingLine.indexOf('\n')) !== -1) {
      const line = this.pendingLine.slice(0, nl).replace(/\r$/, '');
      this.pendingLine = this.pendingLine.slice(nl + 1);
      if (!line) continue;
      let message: JsonObject;
      try {
        message = JSON.parse(line) as JsonObject;
      } catch {
        message = { __unparseableLine: line };
      }
      this.record('server->client', message);
    }
  }

  protected record(direction: WireEntry['direction'], message: JsonObject): void {
    const entry: WireEntry = { seq: this.wire.length, at: Date.now() - this.started, direction, message: structuredClone(message) };
    this.wire.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  /** The seq the next recorded message will get (use as `since`). */
  mark(): number {
    return this.wire.length;
  }

  /** Server messages recorded at or after `since`. */
  inbound(since = 0): JsonObject[] {
    return this.wire.filter((e) => e.seq >= since && e.direction === 'server->client').map((e) => e.message);
  }

  /** Entries (any direction) at or after `since` matching `predicate`. */
  entries(predicate: (entry: WireEntry) => boolean, since = 0): WireEntry[] {
    return this.wire.filter((e) => e.seq >= since && predicate(e));
  }

  /** The last request the client sent with this method (and matching `where`). */
  lastRequest(method: string, where: (params: JsonObject) => boolean = () => true): WireEntry {
    for (let i = this.wire.length - 1; i >= 0; i--) {
      const { direction, message } = this.wire[i];
      if (direction === 'client->server' && message.method === method && 'id' in message && where((message.params ?? {}) as JsonObject)) {
        return this.wire[i];
      }
    }
    throw new Error(`The client never sent a ${method} request matching the filter`);
  }

  /** Every server response (result or error) carrying this id. */
  responsesTo(id: unknown): WireEntry[] {
    return this.wire.filter((e) => e.direction === 'server->client' && !('method' in e.message) && JSON.stringify(e.message.id) === JSON.stringify(id));
  }

  /** The server's single response to the last matching request (fails when there is not exactly one). */
  responseTo(method: string, where?: (params: JsonObject) => boolean): JsonObject {
    const request = this.lastRequest(method, where);
    const responses = this.responsesTo(request.message.id);
    if (responses.length !== 1) throw new Error(`Expected one response to ${method} id ${String(request.message.id)}, got ${responses.length}`);
    return responses[0].message;
  }

  /** Resolves with the first server message at or after `since` matching `predicate`. */
  waitFor(predicate: (message: JsonObject) => boolean, what: string, since = 0, timeoutMs = 5000): Promise<WireEntry> {
    const found = this.wire.find((e) => e.seq >= since && e.direction === 'server->client' && predicate(e.message));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const listener: Listener = (entry) => {
        if (entry.direction === 'server->client' && predicate(entry.message)) {
          clearTimeout(timer);
          this.listeners = this.listeners.filter((l) => l !== listener);
          resolve(entry);
        }
      };
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.listeners.push(listener);
    });
  }
}
