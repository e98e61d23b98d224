/**
 * Answers a refusal that closes the connection (413, 503) while the request body is still
 * arriving. Closing a socket with unread bytes makes the kernel send a reset, which a client that
 * is still uploading usually sees instead of the answer; so the answer is written at once, the
 * rest of the body is read and thrown away (never buffered) within a byte and time budget, and
 * only then is the response ended and the connection closed.
 */
import { byteLength, type McpHttpRequest, type McpHttpResponse } from '../exchange/http-exchange.js';
import { sendHttpError, type HttpTransportError } from '../errors/http-transport.error.js';

/** How much of a refused request body is read and discarded before the connection closes. */
export interface DiscardBudget {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** Sends `error`; the response ends once the request body ended or the budget ran out. */
export function sendThenDiscard(req: McpHttpRequest, res: McpHttpResponse, error: HttpTransportError, budget: DiscardBudget): void {
  if (req.complete || req.destroyed || res.headersSent || budget.maxBytes === 0 || budget.timeoutMs === 0) return sendHttpError(res, error);
  const body = error.body();
  res.writeHead(error.status, { ...error.headers, 'Content-Type': 'application/json', 'Content-Length': byteLength(body) });
  res.write(body);
  let left = budget.maxBytes;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
    if (!res.destroyed) res.end();
  };
  const onData = (chunk: Uint8Array) => {
    left -= chunk.length;
    if (left < 0) done();
  };
  const timer = setTimeout(done, budget.timeoutMs);
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}
