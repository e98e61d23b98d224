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
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, Revision } from './spec-schemas';
import { WireRecorder } from './wire-recorder';

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

/** What either SDK's StdioClientTransport offers a wrapper (its ChildProcess stays private). */
export interface StdioInner<M> {
  start(): Promise<void>;
  send(message: M): Promise<void>;
  close(): Promise<void>;
  readonly stderr: Stream | null;
  onmessage?: (message: M) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
}

/**
 * A recording wrapper around a stdio client transport of either SDK: outbound messages as sent,
 * inbound from the raw stdout lines of the child, parsed deliveries counted, stderr and the exit
 * kept. Subclasses implement the SDK's Transport with `send`.
 */
export class StdioRecorder<M extends object> extends WireRecorder {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  // `extra` is unknown here: each SDK types it its own way and the wrapper never passes one.
  onmessage?: (message: M, extra?: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  sessionId?: string;

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
  stderrText = '';

  constructor(protected readonly inner: StdioInner<M>) {
    super();
    this.inner.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
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
    // Both SDKs keep the ChildProcess private; the raw stdout and the exit code are only
    // reachable through it.
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
    child.stdout.on('data', (chunk: Buffer) => this.tapStdout(chunk.toString('utf8')));
  }

  /** Records `message` and hands it to the inner transport. */
  protected forward(message: M): Promise<void> {
    this.record('client->server', message as unknown as JsonObject);
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.negotiatedProtocolVersion = version;
  }
}

/** The SDK 1.x StdioClientTransport, recorded, with `initialize` pinned to one revision. */
export class RecordingTransport extends StdioRecorder<JSONRPCMessage> implements Transport {
  constructor(
    readonly revision: Revision,
    readonly server: ServerEntry,
  ) {
    super(new StdioClientTransport({ command: process.execPath, args: [server.main, ...(server.args ?? [])], stderr: 'pipe' }));
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    let out: JSONRPCMessage = message;
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      out = { ...message, params: { ...message.params, protocolVersion: this.revision } } as JSONRPCMessage;
    }
    return this.forward(out);
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
