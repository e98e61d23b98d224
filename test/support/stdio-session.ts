/**
 * Runs a built TypeMCP server entry point (e.g. apps/everything/dist/main.js) as a child process
 * and connects the official SDK Client to it over StdioClientTransport, pinned to one protocol
 * revision and with every message in both directions recorded. Shared by every app's end-to-end
 * tests; the entry point (script and arguments) is a parameter.
 *
 * The SDK client always asks for its latest revision in `initialize`; the recording transport
 * rewrites `params.protocolVersion` of the outgoing initialize request to the target revision
 * (the client accepts any revision it supports in the reply).
 *
 * Inbound messages are recorded from the raw stdout lines of the child (a second listener on
 * the same stream, so each line is recorded exactly as the server wrote it, before the client
 * acts on it; the SDK's parser drops unknown keys inside `error` and rejects unknown
 * top-level keys, which would hide deviations). The parsed deliveries to the client are
 * counted as well, so a line the SDK could not parse shows up as a mismatch.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, Revision, WireEntry } from './spec-schemas';

/** A built server entry point, run with the current Node.js executable. */
export interface ServerEntry {
  /** Absolute path of the script, e.g. `path.resolve(__dirname, '../dist/main.js')`. */
  main: string;
  /** Arguments after the script, e.g. `['--transport', 'stdio']`. */
  args?: string[];
}

/** Throws a clear error when the server has not been built. */
export function assertServerBuilt(server: ServerEntry): void {
  if (!existsSync(server.main)) {
    throw new Error(`${server.main} does not exist. Build the workspace first: \`npm run build\` (tsc -b).`);
  }
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

type Listener = (entry: WireEntry) => void;

/** A Transport wrapping StdioClientTransport that pins the revision and records the wire. */
export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  /** Every message in both directions, in order. */
  readonly wire: WireEntry[] = [];
  /** Errors reported by the inner transport (e.g. a line the SDK could not parse). */
  readonly transportErrors: Error[] = [];
  /** What the client told the transport after `initialize` (SDK `setProtocolVersion`). */
  negotiatedProtocolVersion?: string;
  /** Messages the inner transport delivered to the client. */
  deliveredToClient = 0;
  /** Resolves when the child exits. */
  exited!: Promise<ExitInfo>;
  exitInfo?: ExitInfo;
  /** Everything the child wrote to stderr. */
  stderr = '';

  private readonly inner: StdioClientTransport;
  private readonly started = Date.now();
  private listeners: Listener[] = [];
  private pendingLine = '';

  constructor(
    readonly revision: Revision,
    readonly server: ServerEntry,
  ) {
    this.inner = new StdioClientTransport({
      command: process.execPath,
      args: [server.main, ...(server.args ?? [])],
      stderr: 'pipe',
    });
    this.inner.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.inner.onmessage = (message) => {
      this.deliveredToClient++;
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => {
      this.transportErrors.push(error);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
  }

  async start(): Promise<void> {
    await this.inner.start();
    // StdioClientTransport keeps its ChildProcess private; the raw stdout and the exit code are
    // only reachable through it.
    const child = (this.inner as unknown as { _process?: ChildProcess })._process;
    if (!child?.stdout) {
      throw new Error('StdioClientTransport no longer exposes _process.stdout: update test/support/stdio-session.ts');
    }
    this.exited = new Promise<ExitInfo>((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      }),
    );
    child.stdout.on('data', (chunk: Buffer) => this.tap(chunk.toString('utf8')));
  }

  private tap(text: string): void {
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

  private record(direction: WireEntry['direction'], message: JsonObject): void {
    const entry: WireEntry = { seq: this.wire.length, at: Date.now() - this.started, direction, message: structuredClone(message) };
    this.wire.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    let out: JSONRPCMessage = message;
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      out = { ...message, params: { ...message.params, protocolVersion: this.revision } } as JSONRPCMessage;
    }
    this.record('client->server', out as unknown as JsonObject);
    return this.inner.send(out);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.negotiatedProtocolVersion = version;
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
    return this.wire.filter(
      (e) => e.direction === 'server->client' && !('method' in e.message) && JSON.stringify(e.message.id) === JSON.stringify(id),
    );
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

export interface StdioSession {
  client: Client;
  transport: RecordingTransport;
  /** Errors the SDK client reported (unknown ids, unparseable messages, handler failures...). */
  clientErrors: Error[];
  /** Closes the client (ends the child's stdin) and resolves with the child's exit. */
  close(): Promise<ExitInfo>;
}

/**
 * Spawns `server`, connects `client` pinned to `revision`. Configure the client (capabilities,
 * request handlers) before calling this.
 */
export async function connectStdio(server: ServerEntry, revision: Revision, client: Client): Promise<StdioSession> {
  assertServerBuilt(server);
  const transport = new RecordingTransport(revision, server);
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  let closing: Promise<ExitInfo> | undefined;
  return {
    client,
    transport,
    clientErrors,
    close: () => (closing ??= client.close().then(() => transport.exited)),
  };
}
