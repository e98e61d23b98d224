/**
 * The inbound requests of one session that are not answered yet, found by id (duplicate ids,
 * `notifications/cancelled`, shutdown). A request is in flight from just before its handler runs
 * until it is settled (answered or cancelled).
 *
 * Most handlers answer synchronously, so most requests are only in flight while their handler's
 * call is on the stack. Those are kept on a small stack (almost always 0 or 1 long; longer only
 * when a handler's own message makes a transport deliver another request synchronously), and
 * only a request whose handler returned a promise moves to the map. A `Map` entry per request
 * cost about 0.9 µs per call: a session's map lives in the old generation, and with ever-new ids
 * V8 reallocates its table every few requests (grown when full of deleted entries, shrunk when
 * emptied), each time in the runtime.
 */
import type { RequestId } from '../jsonrpc/message.js';
import type { RequestContext } from './request-context.js';

export class InFlightRequests {
  /** Requests whose handler is being called right now, innermost last (settled ones stay until it returns). */
  private readonly running: RequestContext[] = [];
  /** Requests whose handler returned a promise, by id, in the order they got there. */
  private readonly waiting = new Map<RequestId, RequestContext>();

  /** How many requests are in flight. */
  get size(): number {
    let n = this.waiting.size;
    for (let i = 0; i < this.running.length; i++) if (!this.running[i].done) n++;
    return n;
  }

  /** The request in flight with this id, if any. */
  get(id: RequestId): RequestContext | undefined {
    for (let i = this.running.length - 1; i >= 0; i--) {
      const ctx = this.running[i];
      if (ctx.id === id && !ctx.done) return ctx;
    }
    return this.waiting.size === 0 ? undefined : this.waiting.get(id);
  }

  /** `ctx`'s handler is about to be called. */
  enter(ctx: RequestContext): void {
    this.running.push(ctx);
  }

  /**
   * `ctx`'s handler returned (or threw): with `pending` (it returned a promise) a request not
   * settled meanwhile stays in flight until `settled`.
   */
  leave(ctx: RequestContext, pending: boolean): void {
    this.running.pop();
    if (pending && !ctx.done) this.waiting.set(ctx.id, ctx);
  }

  /** `ctx` is no longer in flight (its `done` is already set). */
  settled(ctx: RequestContext): void {
    // A later request may reuse the id of a cancelled one: only its own entry goes.
    if (this.waiting.size !== 0 && this.waiting.get(ctx.id) === ctx) this.waiting.delete(ctx.id);
  }

  /** Every request in flight: those waiting on a promise, then those whose handler is running. */
  values(): RequestContext[] {
    const all = [...this.waiting.values()];
    for (const ctx of this.running) if (!ctx.done) all.push(ctx);
    return all;
  }
}
