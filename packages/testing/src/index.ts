/**
 * @typemcp/testing: an in-memory MCP client bound to a TypeMCP server, for tests. It speaks to
 * the engine's real session through its Transport interface (only the pipe is replaced),
 * completes the handshake at any legacy revision or speaks the stateless 2026-07-28, answers
 * the server's requests (or `input_required` rounds) from handlers, and collects notifications. Framework-agnostic: no test runner is imported.
 */
export { createTestClient } from './create-test-client.js';
export type { ProtocolEra } from './driver/client-driver.interface.js';
export { InputRoundsExceededError, TestingErrorCode, UnsupportedRevisionError, type TestingErrorCodeValue } from './errors.js';
export { JsonRpcError } from './json-rpc.error.js';
export { TestClient } from './test-client.js';
export { TestTasks, type TaskCallOptions, type TaskRequester, type TaskResultOptions, type TestTask } from './test-tasks.js';
export type { BuildServerOptions, ClientSideOptions, ExistingServerOptions, TestClientOptions } from './test-client.options.js';
export type {
  Awaitable,
  CompletionReference,
  CreateMessageParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitAnswer,
  ElicitParams,
  LogMessage,
  Notification,
  NotificationParams,
  ProgressParams,
  RequestOptions,
  SamplingMessage,
  ServerNotificationParams,
  TestSkill,
} from './test-client.types.js';
export { APPS_HOST_EXTENSIONS, renderApp, type AppToolVisibility, type RenderedApp, type RenderedView } from './render-app.js';
export { textOf } from './text-of.js';
