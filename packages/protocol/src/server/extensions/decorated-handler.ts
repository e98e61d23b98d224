/**
 * A method handler whose results pass through extensions' result decorators, in the order the
 * extensions were installed. Only the methods some extension decorates are wrapped: every other
 * handler stays as it is.
 */
import { isJsonObject, type JsonObject } from '../../jsonrpc/message.js';
import { isThenable } from '../../util/is-thenable.js';
import type { MethodHandler } from '../handlers/method-handler.type.js';
import { InputRequired } from '../input-round.js';
import type { RequestContext } from '../request-context.js';
import type { ResultDecorator } from './extension.types.js';

/** `handler` with `decorators` applied to each result it answers; synchronous when `handler` is. */
export function decoratedHandler(handler: MethodHandler, decorators: readonly ResultDecorator[]): MethodHandler {
  const apply = (result: unknown, params: JsonObject, ctx: RequestContext): unknown => {
    // An input_required answer is the engine's, not the method's result.
    if (!isJsonObject(result) || result instanceof InputRequired) return result;
    const info = { params, ctx };
    let out: JsonObject = result;
    for (let i = 0; i < decorators.length; i++) out = decorators[i](out, info);
    return out;
  };
  return (params, ctx) => {
    const out = handler(params, ctx);
    return isThenable(out) ? Promise.resolve(out).then((result) => apply(result, params, ctx)) : apply(out, params, ctx);
  };
}
