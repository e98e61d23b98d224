/**
 * Thrown by a tool to report a failure the model should see: the call is answered with
 * `isError: true` and this message. Any other error is masked as a generic failure.
 * @publicApi
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
