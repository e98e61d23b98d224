/**
 * Which inbound messages open a response stream. Mirrors the engine's envelope rules so that a
 * message the engine would answer without a request id (an invalid one) is answered here, on
 * the HTTP response, instead of on an unrelated stream.
 */
import type { RequestId } from '@typemcp/protocol';

export type Inbound =
  | { kind: 'request'; id: RequestId; method: string }
  | { kind: 'notification'; method: string }
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; reason: string };

const isRequestId = (v: unknown): v is RequestId => typeof v === 'string' || Number.isSafeInteger(v);

export function classify(value: unknown): Inbound {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', id: null, reason: 'A JSON-RPC message must be an object' };
  }
  const msg = value as Record<string, unknown>;
  const id = 'id' in msg && isRequestId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'The "jsonrpc" member must be exactly "2.0"' };
  if ('method' in msg) {
    if (typeof msg.method !== 'string') return { kind: 'invalid', id, reason: 'The "method" member must be a string' };
    if (!('id' in msg)) return { kind: 'notification', method: msg.method };
    if (id === null) return { kind: 'invalid', id: null, reason: 'A request id must be a string or an integer' };
    return { kind: 'request', id, method: msg.method };
  }
  if ('result' in msg || 'error' in msg) return { kind: 'response' };
  return { kind: 'invalid', id, reason: 'Not a request, notification or response' };
}

/**
 * True when `message` (as the engine serialises it) is the response to request `id`: responses
 * start `{"jsonrpc":"2.0","id":<id>,"result"` or `..."error"`; a server->client request made for
 * that request carries its own id followed by `"method"`. Avoids parsing every outgoing message.
 */
export function isResponseTo(message: string, id: RequestId): boolean {
  const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"`;
  if (!message.startsWith(prefix)) return false;
  const next = message.charCodeAt(prefix.length);
  return next === 114 /* r(esult) */ || next === 101 /* e(rror) */;
}

const RESPONSE = /^\{"jsonrpc":"2\.0","id":(?:-?\d+|"(?:[^"\\]|\\.)*"),"(?:result|error)"/;

/** True for any JSON-RPC response (never allowed on a standalone stream). */
export function isResponse(message: string): boolean {
  return RESPONSE.test(message);
}
