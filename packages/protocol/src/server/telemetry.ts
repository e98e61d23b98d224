/**
 * The engine's telemetry seam. Hooks observe; telemetry must also run the handler inside its own
 * context (an OpenTelemetry span made active, so the spans and logs a handler makes belong to its
 * request) and see the answer the session actually sends (the 2026-07-28 `input_required`
 * result, a cancellation), which a wrapped method handler cannot. One per server
 * (`ProtocolServer.useTelemetry`); while none is set, a request costs one property test more
 * than without the seam, and nothing else (no closure, no await, no allocation).
 */
import type { JsonObject, JsonRpcErrorObject } from '../jsonrpc/message.js';
import type { SessionContract } from './contracts.js';
import type { MethodHandler } from './handlers/method-handler.type.js';
import type { ObservedEnd, RequestContext } from './request-context.js';

/**
 * What follows one request from its handler's call to its answer (e.g. a server span).
 * @publicApi
 */
export interface RequestObservation extends ObservedEnd {
  /**
   * Calls `handler(params, ctx)` once, synchronously, and returns what it returns (a value or a
   * promise): typically inside `context.with(...)`, so the handler and what it awaits see the
   * observation's context.
   */
  run(handler: MethodHandler, params: JsonObject, ctx: RequestContext): unknown;
  /** An internal error was reported for the request (the client sees it masked). */
  failed?(error: unknown): void;
  /**
   * The request is over: answered with `result` (the body before the 2026-07-28 decoration), or
   * with the JSON-RPC `error`, or not answered at all (cancelled: both undefined). Called once,
   * after the answer was handed to the transport.
   */
  end(result: JsonObject | undefined, error: JsonRpcErrorObject | undefined): void;
}

/**
 * A server's telemetry (`@typemcp/otel` implements it with OpenTelemetry).
 * @publicApi
 */
export interface RequestTelemetry {
  /** A request passed admission and its handler is about to run. */
  request(method: string, params: JsonObject, ctx: RequestContext): RequestObservation;
  /**
   * The params of a request the server sends to the client (elicitation, sampling, roots): returns them with the trace context added to `_meta` (or unchanged). Called in the
   * context of the handler that asks, so the current span is the one to continue.
   */
  outgoing?(method: string, params: JsonObject | undefined): JsonObject | undefined;
  /** A session closed (`session.features` says whether it was ever initialized). */
  sessionClosed?(session: SessionContract): void;
}
