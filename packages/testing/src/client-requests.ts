/**
 * The client's side of server->client requests: `sampling/createMessage`, `elicitation/create`,
 * `roots/list` and `ping`, answered from the handlers the test configured. Era-independent: a
 * legacy driver calls it for requests on the connection; a stateless one would call it for the
 * inputs a result asks for.
 */
import type { Root } from '@typemcp/core';
import { ErrorCode, type ClientCapabilities, type JsonObject } from '@typemcp/protocol';
import { JsonRpcError } from './json-rpc.error.js';
import type { ClientSideOptions } from './test-client.options.js';
import type { CreateMessageParams, ElicitParams } from './test-client.types.js';

type Handlers = Pick<ClientSideOptions, 'onSample' | 'onElicit' | 'roots'>;

/** @internal */
export class ClientRequests {
  private roots?: Root[];

  constructor(private readonly handlers: Handlers) {
    this.roots = handlers.roots;
  }

  /** The capabilities these handlers can honour (the default of `capabilities`). */
  capabilities(): ClientCapabilities {
    const caps: ClientCapabilities = {};
    if (this.handlers.onSample) caps.sampling = {};
    if (this.handlers.onElicit) caps.elicitation = {};
    if (this.roots) caps.roots = { listChanged: true };
    return caps;
  }

  setRoots(roots: Root[]): void {
    this.roots = roots;
  }

  /** The result for one request; throws a {@link JsonRpcError} to answer with an error. */
  async answer(method: string, params: JsonObject): Promise<JsonObject> {
    const { onSample, onElicit } = this.handlers;
    switch (method) {
      case 'ping':
        return {};
      case 'sampling/createMessage':
        if (onSample) return onSample(params as CreateMessageParams);
        break;
      case 'elicitation/create':
        if (onElicit) return onElicit(params as ElicitParams);
        break;
      case 'roots/list':
        if (this.roots) return { roots: this.roots };
        break;
    }
    throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (the test client has no handler for it)`, undefined, method);
  }
}

/** The JSON-RPC error object for whatever a handler threw: its own `code` when it has one. */
export function toErrorObject(error: unknown): { code: number; message: string; data?: unknown } {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  const code = typeof e?.code === 'number' && Number.isInteger(e.code) ? e.code : ErrorCode.InternalError;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return e?.data === undefined ? { code, message } : { code, message, data: e.data };
}
