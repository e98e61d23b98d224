/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to
 * stdout; diagnostics go to stderr. Responses produced in the same turn of the event loop are
 * written together, except a response right after a progress notification of its request, which
 * waits a few milliseconds (see ProgressPacer). When stdin ends (or on SIGTERM/SIGINT) in-flight
 * requests get `graceMs` to be answered, the rest are aborted and answered with an error, stdout
 * is flushed, and the returned promise resolves.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { errorMessage } from '../jsonrpc/message.js';
import type { ProtocolServer } from '../server/protocol-server.js';
import type { Session } from '../server/session.js';
import { LineDecoder } from './line-decoder.js';
import type { StdioOptions } from '../options/stdio-options.js';
import { checkStdioOptions } from '../options/check-server-options.js';
import { PROTOCOL_DEFAULTS } from '../options/defaults.js';
import { stdioBanner } from './stdio-banner.js';
import { PROGRESS_GAP_MS, ProgressPacer } from './progress-pacer.js';

export type { StdioOptions };

/** A running stdio connection. */
export interface StdioConnection {
  readonly session: Session;
  /** Resolves once the connection has shut down and stdout is flushed. */
  readonly closed: Promise<void>;
  /** Starts the same shutdown as the end of stdin. */
  close(): Promise<void>;
}

/** The default cap on one message: large enough for big tool payloads, small enough to bound memory. */
export const DEFAULT_MAX_MESSAGE_BYTES = PROTOCOL_DEFAULTS.maxMessageBytes;

/** Serves one MCP session over stdio. Throws an InvalidOptionError for an option it cannot work with. @publicApi */
export function serveStdio(server: ProtocolServer, options: StdioOptions = {}): StdioConnection {
  checkStdioOptions(options);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const graceMs = options.graceMs ?? PROTOCOL_DEFAULTS.graceMs;
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;

  // Responses are queued and written together: at the end of the input chunk that produced
  // them (synchronous handlers), or on the next turn of the event loop (asynchronous ones).
  let queue: string[] = [];
  let scheduled = false;
  let reading = false;
  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const text = queue.length === 1 ? queue[0] + '\n' : queue.join('\n') + '\n';
    queue = [];
    output.write(text);
  };
  const enqueue = (message: string) => {
    queue.push(message);
    if (!reading && !scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  const gapMs = options.progressGapMs ?? PROGRESS_GAP_MS;
  const pacer = gapMs > 0 ? new ProgressPacer(enqueue, gapMs) : undefined;
  const session = server.connect(pacer ?? { send: enqueue });
  const decoder = new LineDecoder(maxBytes, {
    onLine: (line) => session.receive(line),
    // The id of a discarded message cannot be known without parsing it, so the answer has id null.
    onOversized: (limit) =>
      enqueue(
        errorMessage(null, {
          code: ErrorCode.InvalidRequest,
          message: `Message too large: the limit is ${limit} bytes; the message was discarded`,
        }),
      ),
  });

  const handleSignals = options.handleSignals ?? (options.input === undefined && options.output === undefined);
  const onData = (chunk: Buffer) => {
    reading = true;
    try {
      decoder.push(chunk);
    } finally {
      reading = false;
    }
    if (!scheduled) flush();
  };
  const onSignal = () => void close();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;

  function close(): Promise<void> {
    closing ??= (async () => {
      input.off('data', onData);
      if (handleSignals) {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      }
      await session.close(graceMs);
      // Its tasks end with the connection: no client could ever poll them again.
      server.cancelTasks(session);
      pacer?.dispose();
      flush();
      // The callback of an empty write runs once everything queued before it is written.
      await new Promise<void>((resolve) => output.write('', () => resolve()));
      resolveClosed();
    })();
    return closing;
  }

  input.on('data', onData);
  input.once('end', () => void close());
  input.once('error', () => void close());
  if (handleSignals) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  const ownStreams = options.input === undefined && options.output === undefined;
  if (options.banner ?? (ownStreams && PROTOCOL_DEFAULTS.banner)) process.stderr.write(stdioBanner(server.serverInfo));
  return { session, closed, close };
}
