/**
 * Which outgoing messages are responses. Inbound messages are classified with the engine's own
 * `classifyMessage`, so a message the engine would answer without a request id (an invalid one)
 * can be answered here, on the HTTP response, instead of on an unrelated stream.
 */
import type { RequestId } from '@typemcp/protocol';

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
