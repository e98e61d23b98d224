import type { JsonObject } from '../../jsonrpc/message.js';
import type { RequestContext } from '../request-context.js';

/** Answers one JSON-RPC method: returns the result (or a promise of it) or throws an McpError. */
export type MethodHandler = (params: JsonObject, ctx: RequestContext) => unknown;

/** A group of method handlers, keyed by method name. */
export type MethodTable = Record<string, MethodHandler>;
