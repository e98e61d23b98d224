/**
 * @typemcp/otel: OpenTelemetry for TypeMCP servers, after the semantic conventions for the Model
 * Context Protocol. Depends only on @opentelemetry/api (a peer) and @typemcp/protocol; the
 * application brings the SDK and exporters.
 */
export { McpAttr, McpMetric } from './attributes.js';
export { INSTRUMENTATION_NAME, instrumentServer, McpTelemetry, type McpTelemetryOptions } from './mcp-telemetry.js';
