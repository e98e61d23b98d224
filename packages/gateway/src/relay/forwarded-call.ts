/**
 * One downstream request forwarded to a 2025-era upstream, which asks its questions with real
 * requests while its own request waits. For a 2025 client each question is relayed as a request.
 * A 2026-07-28 client cannot be sent one: the question goes out in the `input_required` result of
 * the downstream request, whose run then ends, and the upstream request is parked (still open)
 * until the client's retry carries the answer (found by the question's input key, which names
 * this call) or the park expires (the upstream request is then cancelled).
 */
import { InputRequiredError, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { askClient } from './ask-client.js';

/** A question of the upstream waiting for the client's answer. */
interface PendingQuestion {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly key: string;
  readonly signal: AbortSignal;
  resolve(answer: JsonObject): void;
  reject(error: unknown): void;
}

/** What parks and unparks a call (the mount's call registry). */
export interface ParkingLot {
  /** A new input-key prefix for `call`, which is now findable by it. */
  park(call: ForwardedCall): string;
  /** Forgets `call` (its upstream request ended or expired). */
  unpark(call: ForwardedCall): void;
}

/** One forwarded request and its upstream request. */
export class ForwardedCall {
  /** Aborts the upstream request (the downstream request was cancelled, or the park expired). */
  readonly controller = new AbortController();
  private attached: RequestContext;
  private detach: () => void = () => undefined;
  private pending?: PendingQuestion;
  private prefix?: string;
  private asked = 0;
  private interrupt?: (error: unknown) => void;
  private outcome?: Promise<unknown>;
  private expiry?: NodeJS.Timeout;

  constructor(
    ctx: RequestContext,
    /** Who started it (`principalKey`): only they may resume it. */
    readonly owner: string,
    /** Method and params of the request, to match a retry to it. */
    readonly digest: string,
    private readonly lot: ParkingLot,
    private readonly parkMs: number,
  ) {
    this.attached = ctx;
    this.attach(ctx);
  }

  /** The downstream request it serves now. */
  get ctx(): RequestContext {
    return this.attached;
  }

  /** The input-key prefix it is parked under, if it ever was. */
  get parkedAs(): string | undefined {
    return this.prefix;
  }

  /** Serves `ctx` from now on: its cancellation (not its end) cancels the upstream request. */
  attach(ctx: RequestContext): void {
    this.detach();
    clearTimeout(this.expiry);
    this.attached = ctx;
    const onAbort = () => {
      // A request that was answered (input_required included) is over, not cancelled.
      if (!ctx.done) this.controller.abort(ctx.signal.reason);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    this.detach = () => ctx.signal.removeEventListener('abort', onAbort);
  }

  /**
   * Waits for the upstream request (`upstream`, given once) on behalf of the attached request:
   * resolves with its result, or rejects with its error or with an InputRequiredError when the
   * call was parked meanwhile (the downstream run is over; the upstream request goes on).
   */
  wait(upstream?: Promise<unknown>): Promise<unknown> {
    if (upstream) {
      this.outcome = upstream.finally(() => this.end());
      this.outcome.catch(() => undefined);
    }
    const interrupted = new Promise<never>((_resolve, reject) => (this.interrupt = reject));
    interrupted.catch(() => undefined);
    if (this.pending) this.askPending();
    return Promise.race([this.outcome!, interrupted]);
  }

  /** Relays one question of the upstream to the attached request's client. */
  ask(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject> {
    const ctx = this.attached;
    if (!ctx.modern) return askClient(ctx, method, params, undefined, signal);
    this.prefix ??= this.lot.park(this);
    return new Promise<JsonObject>((resolve, reject) => {
      const question: PendingQuestion = { method, params, key: `${this.prefix}.${this.asked++}`, signal, resolve, reject };
      this.pending = question;
      // The upstream gave up on its question (its own timeout, or it was cancelled).
      signal.addEventListener('abort', () => this.drop(question, signal.reason), { once: true });
      this.askPending();
    });
  }

  /** Asks the pending question in the attached request (answered at once on the retry carrying it). */
  private askPending(): void {
    const question = this.pending!;
    const ctx = this.attached;
    askClient(ctx, question.method, question.params, question.key, question.signal).then(
      (answer) => {
        if (this.pending !== question) return;
        this.pending = undefined;
        question.resolve(answer);
      },
      (error: unknown) => {
        if (this.pending !== question) return;
        if (error instanceof InputRequiredError) return this.parked(ctx, error);
        this.drop(question, error);
      },
    );
  }

  /** The attached run ended with the question in its `input_required` result: wait for the retry. */
  private parked(ctx: RequestContext, error: InputRequiredError): void {
    if (ctx !== this.attached) return;
    this.detach();
    this.interrupt?.(error);
    this.expiry = setTimeout(() => this.controller.abort(new Error('The client did not answer in time')), this.parkMs);
    this.expiry.unref();
  }

  private drop(question: PendingQuestion, reason: unknown): void {
    if (this.pending !== question) return;
    this.pending = undefined;
    question.reject(reason);
  }

  private end(): void {
    clearTimeout(this.expiry);
    this.detach();
    this.lot.unpark(this);
    if (this.pending) this.drop(this.pending, new Error('The upstream request ended'));
  }
}
