/**
 * The requests a mount forwards to a 2025-era upstream, in flight or parked between the rounds of
 * a 2026-07-28 client. Such an upstream sends its questions, logs and progress with nothing that
 * names the request they belong to (over stdio, and over HTTP as the client reports them), so
 * they are attributed: to the only request in flight, or to the newest of several when all come
 * from one client session; with requests of several sessions in flight a question is refused
 * rather than shown to the wrong user.
 */
import { principalKey, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { canonicalJson } from '@typemcp/protocol/internal';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { ForwardedCall, type ParkingLot } from './forwarded-call.js';

/** The request params that identify it across the rounds (its own round fields left out). */
function digestOf(method: string, params: JsonObject): string {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params;
  return canonicalJson([method, rest]);
}

/** The calls of one mount. */
export class CallRegistry implements ParkingLot {
  private readonly inFlight = new Set<ForwardedCall>();
  private readonly parked = new Map<string, ForwardedCall>();
  private readonly keyPrefix: string;
  private seq = 0;

  constructor(
    private readonly label: string,
    private readonly parkMs: number,
    private readonly maxParked: number,
  ) {
    this.keyPrefix = `gw:${label}:`;
  }

  /** How many calls are parked (waiting for a 2026-07-28 client's retry). */
  get parkedCount(): number {
    return this.parked.size;
  }

  /** Starts tracking a forwarded request. */
  open(ctx: RequestContext, method: string, params: JsonObject): ForwardedCall {
    const call = new ForwardedCall(ctx, principalKey(ctx.principal), digestOf(method, params), this, this.parkMs);
    this.inFlight.add(call);
    return call;
  }

  /**
   * The parked call a 2026-07-28 retry resumes, attached to it; undefined for a request that
   * names none. A retry naming a call that is gone (expired, ended) or is another caller's, or
   * another request's, is refused.
   */
  resume(ctx: RequestContext, method: string, params: JsonObject): ForwardedCall | undefined {
    const key = ctx.inputKeys.find((k) => k.startsWith(this.keyPrefix));
    if (key === undefined) return undefined;
    const call = this.parked.get(key.slice(0, key.lastIndexOf('.')));
    if (!call || call.owner !== principalKey(ctx.principal) || call.digest !== digestOf(method, params)) {
      throw new GatewayError(
        GatewayErrorCode.ParkedCallGone,
        `The request waiting for input "${key}" is no longer open (it expired or belongs to another request); send the request again without inputResponses and requestState.`,
        this.label,
      );
    }
    call.attach(ctx);
    return call;
  }

  /** The call an upstream message without a request of its own belongs to, if one can be told. */
  attributed(): ForwardedCall | undefined {
    if (this.inFlight.size <= 1) return this.inFlight.values().next().value;
    let newest: ForwardedCall | undefined;
    for (const call of this.inFlight) {
      if (newest && call.ctx.session !== newest.ctx.session) return undefined;
      newest = call;
    }
    return newest;
  }

  park(call: ForwardedCall): string {
    if (this.parked.size >= this.maxParked) {
      throw new GatewayError(
        GatewayErrorCode.UnrelayableRequest,
        `Too many requests are waiting for their clients' input (${this.maxParked}); try again later.`,
        this.label,
      );
    }
    const prefix = `${this.keyPrefix}${++this.seq}`;
    this.parked.set(prefix, call);
    return prefix;
  }

  unpark(call: ForwardedCall): void {
    this.inFlight.delete(call);
    if (call.parkedAs !== undefined) this.parked.delete(call.parkedAs);
  }

  /** Cancels every call (the link closed). */
  abortAll(reason: unknown): void {
    for (const call of this.inFlight) call.controller.abort(reason);
  }
}
