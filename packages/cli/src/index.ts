/**
 * @typemcp/cli: the `typemcp` command (dev, start, build, add, list, call, inspect, proxy). The functions below are
 * what the commands run, for scripts and tests.
 */
export { addItem, type AddOptions, type AddResult } from './add/add-item.js';
export { addSkill, type AddSkillOptions } from './add/add-skill.js';
export { addOpenApi, type AddOpenApiOptions, type AddOpenApiResult } from './openapi/add-openapi.js';
export type { OperationFilter, UnmappedOperation } from './openapi/operations.js';
export { ITEM_KINDS, itemNames, type ItemKind, type ItemNames } from './add/names.js';
export { connect, type Connection, type ServerTarget } from './client/connect.js';
export { formatListing, formatToolResult, type Listing } from './client/format.js';
export { buildManifest, type BuildOptions } from './commands/build.command.js';
export { callTool, parseToolArgs } from './commands/call.command.js';
export { runInspector } from './commands/inspect.command.js';
export { listAll } from './commands/list.command.js';
export { startServer } from './commands/start.command.js';
export { runDev, type DevOptions } from './dev/dev-server.js';
export { findInspector, installAdvice, type Inspector } from './inspect/find-inspector.js';
export { createProgram, run } from './program.js';
export { runProxy, type ProxyConfig, type ProxyOptions, type RunningProxy } from './proxy/run-proxy.js';
export { UsageError } from './usage.error.js';
