import type { JsonObject } from '../../jsonrpc/message.js';
import type { RequestContext } from '../request-context.js';
import type { SessionContract } from '../contracts.js';

/** Answers one JSON-RPC method: returns the result (or a promise of it) or throws an McpError. */
export type MethodHandler = (params: JsonObject, ctx: RequestContext) => unknown;

/** A group of method handlers, keyed by method name. */
export type MethodTable = Record<string, MethodHandler>;

/**
 * Acts on one notification from the client (never answered). What it throws, or its promise
 * rejects with, goes to the server's `onError`.
 */
export type NotificationHandler = (params: JsonObject, session: SessionContract) => void | Promise<void>;

/** How a handler is set: `replace` must be true to replace one of the engine's own. */
export interface SetHandlerOptions {
  replace?: boolean;
}
