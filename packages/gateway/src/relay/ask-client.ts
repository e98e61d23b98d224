/**
 * An upstream's question (elicitation, sampling, roots) put to the downstream client through the
 * request it serves: a real request to a 2025 client, a question of the `input_required` result
 * for a 2026-07-28 one (named by `inputKey`, so a retry's answer finds it).
 */
import { ErrorCode, McpError, type JsonObject, type RequestContext } from '@typemcp/protocol';

/** The questions a server may ask its client. */
export type QuestionMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** True for one of the three methods. */
export const isQuestion = (method: string): method is QuestionMethod =>
  method === 'elicitation/create' || method === 'sampling/createMessage' || method === 'roots/list';

/** Asks `ctx`'s client; `signal` (the upstream giving up) cancels a 2025 client's request. */
export function askClient(ctx: RequestContext, method: string, params: JsonObject | undefined, inputKey?: string, signal?: AbortSignal): Promise<JsonObject> {
  // An absent key, not an undefined one: the context's own signal must stay in force.
  const options: { inputKey?: string; signal?: AbortSignal } = {};
  if (inputKey !== undefined) options.inputKey = inputKey;
  if (signal) options.signal = AbortSignal.any([ctx.signal, signal]);
  switch (method) {
    case 'elicitation/create':
      return ctx.elicit(params ?? {}, options);
    case 'sampling/createMessage':
      return ctx.sample(params ?? {}, options);
    case 'roots/list':
      return ctx.roots(options);
    default:
      return Promise.reject(new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
  }
}
