/**
 * The shapes a test sees: what server->client requests carry and what the handlers answer,
 * notifications as received, and per-request options.
 */
import type { SampleResult } from '@typemcp/core';
import type { ContentBlock, JsonObject, LoggingLevel, RequestId, ServerCapabilities } from '@typemcp/protocol';

/** One message of a `sampling/createMessage` request. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  /** One block, or (from 2025-11-25) several. */
  content: ContentBlock | ContentBlock[];
}

/** The params of `sampling/createMessage`, as the server sent them. */
export interface CreateMessageParams extends JsonObject {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
}

/** What an `onSample` handler answers: the client's model reply. */
export type CreateMessageResult = SampleResult;

/** The params of `elicitation/create`, as the server sent them (no `mode` before 2025-11-25). */
export interface ElicitParams extends JsonObject {
  message: string;
  mode?: 'form' | 'url';
  requestedSchema?: JsonObject;
  url?: string;
  elicitationId?: string;
}

/** What an `onElicit` handler answers: the user's action and, when accepted, the form values. */
export type ElicitAnswer = { action: 'accept'; content?: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** A notification the server sent, as parsed from the wire (`params` is absent when it sent none). */
export interface Notification<P = JsonObject> {
  method: string;
  params?: P;
}

/** The params of `notifications/message`. */
export interface LogMessage {
  level: LoggingLevel;
  data: unknown;
  logger?: string;
}

/** The params of `notifications/progress`. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** Params of the notifications a server sends, by method; other methods carry a plain object. */
export interface ServerNotificationParams {
  'notifications/message': LogMessage;
  'notifications/progress': ProgressParams;
  'notifications/resources/updated': { uri: string };
  'notifications/cancelled': { requestId: RequestId; reason?: string };
  'notifications/tools/list_changed': JsonObject;
  'notifications/resources/list_changed': JsonObject;
  'notifications/prompts/list_changed': JsonObject;
}

/** The params type of notification `M`. */
export type NotificationParams<M extends string> = M extends keyof ServerNotificationParams ? ServerNotificationParams[M] : JsonObject;

/** Options of one request. */
export interface RequestOptions {
  /** Receives this request's progress; a `progressToken` is added to `_meta` for it. */
  onProgress?: (progress: ProgressParams) => void;
  /** Aborting sends `notifications/cancelled` and rejects the request with the signal's reason. */
  signal?: AbortSignal;
  /** Rejects when no response came in this many ms (default: the client's `timeoutMs`; 0 for none). */
  timeoutMs?: number;
  /**
   * Extra `_meta` members sent with the request. At 2026-07-28 they go over the client's own
   * (`io.modelcontextprotocol/protocolVersion`, ...), so a test can send a wrong one on purpose.
   */
  meta?: JsonObject;
  /**
   * 2026-07-28 only: answer an `input_required` result from `onSample`/`onElicit`/`roots` and
   * retry until the request completes (default true). With false, the first result is returned
   * as received, `inputRequests` and `requestState` included.
   */
  answerInput?: boolean;
}

/** The result of `server/discover` (2026-07-28), as received. */
export interface DiscoverResult extends JsonObject {
  resultType: 'complete';
  /** Every revision the server serves, newest first. */
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  ttlMs: number;
  cacheScope: 'public' | 'private';
  /** `io.modelcontextprotocol/serverInfo`: the server's identity. */
  _meta?: JsonObject;
}

/** What `completion/complete` completes: a prompt argument or a resource template variable. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** A skill entry of the io.modelcontextprotocol/skills extension (`skills/list`, `skills/get`). @publicApi */
export interface TestSkill {
  /** The URI of its SKILL.md. */
  uri: string;
  /** SKILL.md's frontmatter as JSON. */
  frontmatter: { name: string; description: string; [field: string]: unknown };
  /** Its files with SHA-256 digests and sizes, or `dynamic`. */
  resources: { uri: string; digest: string; size: number }[] | 'dynamic';
}
