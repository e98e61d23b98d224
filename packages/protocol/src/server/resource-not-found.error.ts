/**
 * The one way a resource reader says "no such resource" (a template matched, the item does
 * not exist): answered with the code of the request's revision, -32002 before 2026-07-28 and
 * -32602 from it, with `data: { uri }`, exactly like a URI no resource matches.
 * @publicApi
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { McpError } from '../jsonrpc/protocol.error.js';

export class ResourceNotFoundError extends McpError {
  override readonly name: string = 'ResourceNotFoundError';

  constructor(
    /** The URI that was read. */
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super(ErrorCode.ResourceNotFound, message, { uri });
  }
}
