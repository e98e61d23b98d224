/**
 * @typemcp/gateway: compose and front MCP servers with a TypeMCP server. `mount()` serves another
 * server's tools, resources, templates, prompts and completions under a namespace (another
 * TypeMCP server in this process, a stdio command, a Streamable HTTP URL), relays progress,
 * logs, cancellation, list changes, resource updates and the upstream's questions to the client
 * in both eras, reconnects with backoff, and reshapes tools (rename, describe, hide, filter, set or
 * fix arguments, tool search).
 */
export { GatewayError, GatewayErrorCode, MountConnectError, type GatewayErrorCodeValue } from './errors.js';
export { mount } from './mount/mount-server.js';
export { Mount, type MountState } from './mount/mount.js';
export { MountedServer } from './mount/mounted-server.js';
export type { SkippedFeature } from './mount/skipped-feature.js';
export type {
  FeatureFilter,
  HttpUpstream,
  MountOptions,
  ReconnectOptions,
  StdioUpstream,
  Upstream,
  UpstreamAuth,
  UpstreamEra,
} from './mount/mount-options.interface.js';
export type { ArgumentTransform, ToolMatcher, ToolSearchOptions, ToolsOptions, ToolTransform } from './transforms/tool-options.interface.js';
