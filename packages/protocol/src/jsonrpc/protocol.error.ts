/**
 * An error that is answered to the peer as a JSON-RPC error object, code and message as given.
 * Throw it from a handler to answer a request with a precise protocol error; any other thrown
 * value is answered with a masked -32603.
 * @publicApi
 */
export class McpError extends Error {
  override readonly name: string = 'McpError';

  constructor(
    /** The JSON-RPC error code (see `ErrorCode`). */
    readonly code: number,
    message: string,
    /** Optional structured detail sent as `error.data`. */
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The JSON-RPC `error` member for this error. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}
