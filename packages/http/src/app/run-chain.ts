/** Runs a route's handlers in order on the core's request and response (node's, or the fetch adapter's). */
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { McpHttpRequest, McpHttpResponse } from '../exchange/http-exchange.js';

/** One step of a route: express's handler shape on the core's request and response. */
export type McpRouteHandler = (req: McpHttpRequest, res: McpHttpResponse, next: (error?: unknown) => void) => unknown;

/** Runs express-style handlers on plain node objects, in order; `fail` gets what one passes to `next`. */
export function runChain(chain: readonly McpRouteHandler[], req: McpHttpRequest, res: McpHttpResponse, fail: (error: unknown) => void): void {
  let i = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== 'route' && error !== 'router') return fail(error);
    const handler = chain[i++];
    if (!handler) return fail(new HttpTransportError(HttpErrorCode.NotFound, 'Not found'));
    try {
      // As express 5: a handler's rejected promise goes to the error handler.
      const result = handler(req, res, next);
      if (result instanceof Promise) result.catch(fail);
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}
