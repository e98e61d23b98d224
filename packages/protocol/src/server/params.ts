/** Precise -32602 checks for request params, shared by the method handlers. */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { McpError } from '../jsonrpc/protocol.error.js';

/**
 * The -32602 error for params that fail a check; `detail` says what is wrong, e.g.
 * `skills/get requires "uri" to be a string`.
 * @publicApi
 */
export function invalidParams(detail: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${detail}`);
}

/** The params member `key`, which must be a string (-32602 otherwise). @publicApi */
export function requireString(params: JsonObject, key: string, method: string): string {
  const value = params[key];
  if (typeof value !== 'string') {
    throw invalidParams(`${method} requires "${key}" to be a string`);
  }
  return value;
}

/** The params member `key`: a plain object, or undefined when absent (-32602 for anything else). @publicApi */
export function optionalObject(params: JsonObject, key: string, method: string): JsonObject | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`${method} requires "${key}" to be an object when present`);
  }
  return value as JsonObject;
}

/** A map of string values (prompt arguments, completion context). */
export function optionalStringMap(params: JsonObject, key: string, method: string): Record<string, string> {
  const value = optionalObject(params, key, method);
  if (!value) return {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') {
      throw invalidParams(`${method} "${key}.${k}" must be a string`);
    }
  }
  return value as Record<string, string>;
}
