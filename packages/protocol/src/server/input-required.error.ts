import { ProtocolErrorCode } from '../errors.js';

/**
 * What a 2026-07-28 handler's pending `elicit()`, `sample()` or `roots()` rejects with once the
 * request has been answered with `input_required`: the handler's run is over (the client
 * retries with the answers, and the handler runs again from the start), so its `finally`
 * blocks run and it releases what it holds. Whatever the handler returns or throws afterwards
 * is ignored.
 * @publicApi
 */
export class InputRequiredError extends Error {
  override readonly name = 'InputRequiredError';
  readonly code = ProtocolErrorCode.InputRequired;

  constructor(
    /** The request's method, e.g. `tools/call`. */
    readonly method: string,
  ) {
    super(`${method} was answered with input_required; the client will retry it with the answers and this handler runs again from the start`);
  }
}
