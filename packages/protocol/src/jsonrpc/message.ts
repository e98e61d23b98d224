/** A JSON-RPC id as MCP restricts it: a string or an integer, never null. */
export type RequestId = string | number;

/** Params and results are JSON objects. */
export type JsonObject = Record<string, unknown>;

/** A JSON-RPC request. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC notification (no id, never answered). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The classification of one inbound JSON value. */
export type InboundMessage =
  | { kind: 'request'; id: RequestId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: RequestId | null; result: unknown; error: unknown }
  | { kind: 'invalid'; id: RequestId | null; reason: string };

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A request id is a string or a safe integer. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/**
 * Classifies one parsed JSON value. Hand-written checks, no schema library: this runs once
 * per inbound message.
 */
export function classifyMessage(value: unknown): InboundMessage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', id: null, reason: 'A JSON-RPC message must be an object' };
  }
  const msg = value as JsonObject;
  const hasId = 'id' in msg;
  const id = msg.id;
  const validId = hasId && isRequestId(id) ? (id as RequestId) : null;
  if (msg.jsonrpc !== '2.0') {
    return { kind: 'invalid', id: validId, reason: 'The "jsonrpc" member must be exactly "2.0"' };
  }
  if ('method' in msg) {
    if (typeof msg.method !== 'string') {
      return { kind: 'invalid', id: validId, reason: 'The "method" member must be a string' };
    }
    if (!hasId) return { kind: 'notification', method: msg.method, params: msg.params };
    if (validId === null) {
      return {
        kind: 'invalid',
        id: null,
        reason: id === null ? 'A request id must not be null' : 'A request id must be a string or an integer',
      };
    }
    return { kind: 'request', id: validId, method: msg.method, params: msg.params };
  }
  // A response is never answered, even a malformed one: at worst it is dropped.
  if ('result' in msg || 'error' in msg) {
    return { kind: 'response', id: validId, result: msg.result, error: msg.error };
  }
  return { kind: 'invalid', id: validId, reason: 'Not a request, notification or response' };
}

/** Serialises a successful response. */
export function resultMessage(id: RequestId, result: unknown): string {
  // A finite number is written as String() writes it: one JSON.stringify call less per response.
  const idText = typeof id === 'number' && Number.isFinite(id) ? String(id) : JSON.stringify(id);
  return `{"jsonrpc":"2.0","id":${idText},"result":${JSON.stringify(result)}}`;
}

/** Serialises an error response. */
export function errorMessage(id: RequestId | null, error: JsonRpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}
