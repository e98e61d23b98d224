/**
 * Multi round-trip requests (2026-07-28) behind `ctx.elicit()`, `ctx.sample()` and `ctx.roots()`.
 *
 * A modern client cannot be sent a request, so the handler runs until it asks for input that
 * this round does not carry; then the request is answered with `resultType: "input_required"`,
 * the questions (`inputRequests`) and a sealed `requestState` holding every answer so far. The
 * client retries with `inputResponses`; the handler runs again from the start and each question
 * it asks, in the same order, is answered from the state without a round trip. Work a handler
 * does before its last question therefore runs once per round: keep it idempotent.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { isJsonObject as isObject, type JsonObject } from '../jsonrpc/message.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { InputRequiredError } from './input-required.error.js';
import { digest, type RequestStateSealer } from './request-state.js';
import { principalDigest } from './principal-key.js';

/** The client-side methods a round can ask for, and the prefix of their input keys. */
const KINDS = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;

/** A method a handler can ask the client for. */
export type InputMethod = keyof typeof KINDS;

/** The interim answer of a request that needs input. */
export class InputRequired {
  constructor(
    readonly inputRequests: JsonObject,
    readonly requestState: string,
  ) {}

  toResult(): JsonObject {
    return { resultType: 'input_required', inputRequests: this.inputRequests, requestState: this.requestState };
  }
}

const NO_ANSWERS: JsonObject = Object.freeze({}) as JsonObject;

/** Why an answer is not a valid result of its method, or undefined when it is. */
export function answerProblem(method: InputMethod, value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  switch (method) {
    case 'elicitation/create':
      if (!['accept', 'decline', 'cancel'].includes(value.action as string)) return '"action" must be accept, decline or cancel';
      if (value.content !== undefined && !isObject(value.content)) return '"content" must be an object';
      return undefined;
    case 'sampling/createMessage':
      if (typeof value.role !== 'string') return '"role" must be a string';
      if (!isObject(value.content) && !Array.isArray(value.content)) return '"content" must be a content block or an array of them';
      return undefined;
    default:
      if (!Array.isArray(value.roots) || !value.roots.every((r) => isObject(r) && typeof r.uri === 'string')) {
        return '"roots" must be an array of objects with a string "uri"';
      }
      return undefined;
  }
}

/** The params that identify a request for binding its state: everything but the round's own fields. */
function salient(method: string, params: JsonObject): string {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params;
  return digest({ method, params: rest });
}

/** One modern request's round of questions (engine plumbing, not exported from the package). */
export class InputRound {
  /** Answers already checked and used by this run: what the next round's state carries. */
  private readonly used: JsonObject = {};
  private readonly requests: JsonObject = {};
  private asked = 0;
  private pending = 0;
  private stall?: { promise: Promise<InputRequired>; resolve(value: InputRequired): void };
  /** Rejecters of the questions waiting for the next round; undefined once released. */
  private waiting: ((error: Error) => void)[] | undefined = [];

  private constructor(
    private readonly method: string,
    private readonly sealer: RequestStateSealer,
    private readonly binding: () => [requestDigest: string, principalDigest: string],
    /** Earlier rounds' answers (verified) and this retry's `inputResponses` (checked when used). */
    private readonly answers: JsonObject,
  ) {}

  /**
   * Opens the round of a request: verifies its `requestState` (-32602 when forged, expired or
   * bound to another request or principal) and takes the retry's `inputResponses`. An answer is
   * checked when the handler asks its question (-32602 when it is not a valid result of that
   * method); answers to questions never asked are ignored and never sealed into the next state.
   */
  static open(sealer: RequestStateSealer, method: string, params: JsonObject, principal: unknown): InputRound {
    // Digests are computed only when a state is opened or sealed: most calls ask nothing.
    let binding: [string, string] | undefined;
    const bind = () => (binding ??= [salient(method, params), principalDigest(principal)]);
    const earlier = params.requestState === undefined ? undefined : sealer.open(params.requestState, ...bind()).answers;
    const responses = params.inputResponses;
    if (responses !== undefined && !isObject(responses)) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "inputResponses" must be an object');
    }
    return new InputRound(method, sealer, bind, responses || earlier ? { ...responses, ...earlier } : NO_ANSWERS);
  }

  /** Settles with the interim result once the handler waits on questions this round cannot answer. */
  get stalled(): Promise<InputRequired> {
    if (!this.stall) {
      let resolve!: (value: InputRequired) => void;
      const promise = new Promise<InputRequired>((r) => (resolve = r));
      this.stall = { promise, resolve };
    }
    return this.stall.promise;
  }

  /**
   * The answer to the handler's next question: from this retry or an earlier round, or an
   * {@link InputRequiredError} once the request was answered with `input_required` (sent when
   * every question asked in this turn of the event loop is collected). `key` names the question
   * in `inputRequests`; by default it is the method's kind and the question's position, e.g. `elicitation-0`.
   */
  ask<T>(method: InputMethod, params: JsonObject | undefined, key = `${KINDS[method]}-${this.asked}`): Promise<T> {
    if (!this.waiting) return Promise.reject(new InputRequiredError(this.method));
    this.asked++;
    const answer = this.answers[key];
    if (answer !== undefined) {
      const problem = answerProblem(method, answer);
      if (problem) return Promise.reject(new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${problem}`));
      this.used[key] = answer;
      return Promise.resolve(answer as T);
    }
    this.requests[key] = params === undefined ? { method } : { method, params };
    // Questions asked together (Promise.all) go out in one round: wait one turn of the event loop.
    if (this.pending++ === 0) setImmediate(() => this.emit());
    const waiting = this.waiting;
    const question = new Promise<T>((_resolve, reject) => waiting.push(reject));
    // A question the handler dropped must not become an unhandled rejection when released.
    question.catch(() => undefined);
    return question;
  }

  /**
   * The keys this round carries answers for: the retry's `inputResponses` (unchecked until a
   * question with that key is asked) and, verified, the earlier rounds' in its `requestState`.
   */
  get answeredKeys(): readonly string[] {
    return Object.keys(this.answers);
  }

  /** True once the request was answered with `input_required` (or abandoned). */
  get released(): boolean {
    return this.waiting === undefined;
  }

  /**
   * Called once the request was answered (or abandoned): every question still waiting rejects
   * with an InputRequiredError, and so does any asked later, so the handler's run can end.
   */
  release(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    for (const reject of waiting) reject(new InputRequiredError(this.method));
  }

  private emit(): void {
    const state = this.sealer.seal(...this.binding(), this.used);
    void this.stalled;
    this.stall!.resolve(new InputRequired(this.requests, state));
  }
}
