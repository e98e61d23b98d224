/**
 * Composes interceptors around a method call once, when a service is bound: the call path of a
 * method without interceptors is left as it is, and one with interceptors runs a chain built in
 * advance (outermost first).
 */
import type { RequestContext } from '@typemcp/protocol';
import { Context } from '../context/context.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { DtoValidator } from '../pipeline/dto-validator.js';
import type { Interceptor, InterceptorCall } from './interceptor.interface.js';

/** The feature a chain serves: what every call of it shares. @publicApi */
export interface InterceptedFeature {
  readonly kind: InterceptorCall['kind'];
  readonly name: string;
  readonly service: ClassType;
  readonly method: string;
}

/** One call, as interceptors see it; the Context is made only when one asks for it. */
class Call implements InterceptorCall {
  private ctx?: Context;

  constructor(
    private readonly feature: InterceptedFeature,
    readonly input: unknown,
    readonly request: RequestContext,
    private readonly validator: DtoValidator,
    readonly uri?: string,
  ) {}

  get kind() {
    return this.feature.kind;
  }
  get name() {
    return this.feature.name;
  }
  get service() {
    return this.feature.service;
  }
  get method() {
    return this.feature.method;
  }
  get principal(): unknown {
    return this.request.principal;
  }
  get context(): Context {
    return (this.ctx ??= new Context(this.request, this.validator));
  }
}

/** Calls the method with the input and request context of a call. @publicApi */
export type Invoke = (input: unknown, rc: RequestContext) => unknown;

type Step = (call: InterceptorCall) => Promise<unknown>;

/** What `run` returns (awaited) or throws, as a promise. */
const promised = (run: () => unknown): Promise<unknown> => new Promise((resolve) => resolve(run()));

/** Builds interceptor chains (a class, so tests can watch composition happen once). */
export class InterceptorChain {
  /**
   * `invoke` wrapped by `interceptors` (the first is outermost): a function with `invoke`'s
   * signature (and a resource's URI) that always returns a promise.
   */
  static compose(
    interceptors: readonly Interceptor[],
    invoke: Invoke,
    feature: InterceptedFeature,
    validator: DtoValidator,
  ): (input: unknown, rc: RequestContext, uri?: string) => Promise<unknown> {
    let step: Step = (call) => promised(() => invoke(call.input, call.request));
    for (let i = interceptors.length - 1; i >= 0; i--) {
      const interceptor = interceptors[i];
      const next = step;
      step = (call) => promised(() => interceptor.intercept(call, () => next(call)));
    }
    const first = step;
    return (input, rc, uri) => first(new Call(feature, input, rc, validator, uri));
  }
}
