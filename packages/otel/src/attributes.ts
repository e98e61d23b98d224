/**
 * The names this package records, from the OpenTelemetry semantic conventions for the Model
 * Context Protocol (gen-ai/mcp, status Development) and the general ones they reference.
 */

/** Attribute names. @publicApi */
export const McpAttr = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  errorType: 'error.type',
  responseStatusCode: 'rpc.response.status_code',
} as const;

/** Metric names. @publicApi */
export const McpMetric = {
  /** Histogram (s): a request from its arrival to its answer. */
  serverOperationDuration: 'mcp.server.operation.duration',
  /** Histogram (s): an initialized session from `initialize` to its close. */
  serverSessionDuration: 'mcp.server.session.duration',
} as const;

/** The bucket boundaries the conventions advise for both histograms, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `error.type` of a `tools/call` answered with `isError: true`. */
export const TOOL_ERROR = 'tool_error';

/** `error.type` of a request the client cancelled (it is never answered). */
export const CANCELLED = 'cancelled';
