/** closeSseStream(): server-initiated disconnection of a request's SSE stream (SEP-1699 polling). */
import type { RequestId, SessionContract } from '@typemcp/protocol';
import { streamableSessionOf } from './streamable-session.js';

/**
 * Closes the HTTP connection carrying the current request's SSE stream while the request goes
 * on; the client reconnects with `Last-Event-ID` and receives the rest (progress, the result).
 * Pass the engine request context (`ctx.request` of a TypeMCP `Context`). Returns false, and
 * does nothing, when the request is not on a resumable Streamable HTTP stream: stdio, legacy
 * SSE, stateless mode, no event store, or a client before 2025-11-25 (no priming event). @publicApi
 */
export function closeSseStream(request: { readonly session: SessionContract; readonly id: RequestId }): boolean {
  return streamableSessionOf(request.session)?.closeRequestStream(request.id) ?? false;
}
