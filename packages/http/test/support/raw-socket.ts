/**
 * HTTP/1.1 over a bare `node:net` socket, for clients no HTTP library will play: one that keeps
 * uploading while it reads, one that stops mid-body, one that never finishes its headers.
 */
import { connect, type Socket } from 'node:net';

/** What a raw client saw on its connection. */
export interface RawOutcome {
  /** Every byte the server sent, as latin1 text. */
  response: string;
  /** The socket error the client got (EPIPE, ECONNRESET...), if any. */
  error?: string;
  /** Body bytes the client managed to hand to its socket. */
  sent: number;
  /** Milliseconds from connecting to the socket closing. */
  ms: number;
}

/** A request head with the headers every MCP route needs (Host matches the loopback allow-list). */
export function head(method: string, path: string, port: number, headers: Record<string, string> = {}): string {
  const all = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

/**
 * Connects, writes `head`, then writes `body` slice by slice (waiting for 'drain'), reading all the
 * while; when the body is written the client half-closes only if `endAfter` is set, else it waits
 * for the server. Resolves once the socket is closed.
 */
export function exchange(port: number, request: string, body: Iterable<Buffer> = [], options: { endAfter?: boolean } = {}): Promise<RawOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    let sent = 0;
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => resolve({ response: Buffer.concat(received).toString('latin1'), error, sent, ms: Date.now() - started }));
    const send = async () => {
      socket.write(request);
      for (const slice of body) {
        if (socket.destroyed || socket.writableEnded) break;
        sent += slice.length;
        if (!socket.write(slice)) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
      }
      if (options.endAfter && !socket.destroyed) socket.end();
    };
    // Fire and forget: a failed write ends in 'error' and 'close', which settle the outcome.
    socket.once('connect', () => void send());
  });
}

/** `total` bytes of filler in `sliceBytes` slices. */
export function* filler(total: number, sliceBytes = 64 * 1024): Generator<Buffer> {
  const slice = Buffer.alloc(sliceBytes, 0x78);
  for (let left = total; left > 0; left -= sliceBytes) yield left >= sliceBytes ? slice : slice.subarray(0, left);
}

/** `slices` framed as an HTTP/1.1 chunked body; the terminating chunk only when `finish` is set. */
export function* chunked(slices: Iterable<Buffer>, finish = true): Generator<Buffer> {
  for (const slice of slices) yield Buffer.concat([Buffer.from(`${slice.length.toString(16)}\r\n`), slice, Buffer.from('\r\n')]);
  if (finish) yield Buffer.from('0\r\n\r\n');
}

/** The status code of the first response on the wire, or undefined when none arrived. */
export const statusOf = (outcome: RawOutcome): number | undefined => {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(outcome.response);
  return match ? Number(match[1]) : undefined;
};
