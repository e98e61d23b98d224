import { CoreErrorCode } from '../errors.js';

/**
 * The error for a handler result that JSON cannot carry without silently losing part of it (a
 * Map, a Set, a function, a symbol, NaN...). It is a server fault: reported to `onError` (with
 * the tool, prompt or resource in `where`) and masked to the client like any internal error.
 * @publicApi
 */
export class UnrepresentableResultError extends Error {
  override readonly name = 'UnrepresentableResultError';
  readonly code = CoreErrorCode.UnrepresentableResult;
}
