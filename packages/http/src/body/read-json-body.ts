/**
 * Reads and parses a JSON request body under a byte cap: a declared Content-Length over the cap
 * is refused before reading; a body that grows past it (chunked) stops being read (what is left
 * is discarded by whoever answers the 413, see discard-body.ts). A body that an upstream parser
 * (e.g. `express.json()`) already read is used as it is.
 */
import { utf8Of, type McpHttpRequest } from '../exchange/http-exchange.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';

/** Thrown when the client went away before the body was complete: there is nobody to answer. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

export function tooLarge(limit: number): HttpTransportError {
  return new HttpTransportError(HttpErrorCode.PayloadTooLarge, `Request body too large: the limit is ${limit} bytes`, {
    // The rest of an oversized body is discarded, not parsed, so the connection cannot be reused.
    headers: { Connection: 'close' },
  });
}

function parse(text: string): unknown {
  try {
    // A UTF-8 byte order mark is not JSON whitespace.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new HttpTransportError(HttpErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
  }
}

export function readJsonBody(req: McpHttpRequest & { body?: unknown }, limit: number): Promise<unknown> {
  const pre = req.body;
  if (pre !== undefined) {
    if (pre instanceof Uint8Array) return Promise.resolve().then(() => parse(utf8Of([pre], pre.byteLength)));
    if (typeof pre === 'string') return Promise.resolve().then(() => parse(pre));
    return Promise.resolve(pre);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return Promise.reject(
      new HttpTransportError(HttpErrorCode.UnsupportedMediaType, `Content-Encoding "${encoding}" is not supported; send the body uncompressed`),
    );
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));

  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(limit));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => {
      cleanup();
      const text = utf8Of(chunks, size);
      try {
        resolve(parse(text));
      } catch (error) {
        reject(error);
      }
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new BodyAbortedError(error.message));
    };
    const onClose = () => {
      cleanup();
      reject(new BodyAbortedError('The client closed the connection before the body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
