import { McpError } from './protocol.error.js';

/**
 * A server->client request (sampling, elicitation, roots) that failed: refused locally because
 * the client lacks the capability, timed out, cancelled, or answered with an error. Inside a
 * tool it becomes a tool execution error (`isError`) the model can read, not a protocol error
 * of the tools/call itself.
 * @publicApi
 */
export class ClientRequestError extends McpError {
  override readonly name: string = 'ClientRequestError';
}
