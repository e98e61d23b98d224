/**
 * The MCP shapes the engine produces and consumes, written for the newest legacy revision
 * (2025-11-25). Older clients get them shaped down by `revision-shaper.ts`.
 */
import type { JsonObject } from './jsonrpc/message.js';

/** An icon (2025-11-25). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Name and version of a peer. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** Hints about audience, priority and freshness of a piece of content. */
export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** Text content. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** Base64 image content. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** Base64 audio content (2025-03-26). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** Contents of a resource, text or base64 blob. */
export type ResourceContents =
  { uri: string; mimeType?: string; text: string; _meta?: JsonObject } | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };
/** A resource embedded in a result. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** A link to a resource (2025-06-18). */
export interface ResourceLink extends ResourceDefinition {
  type: 'resource_link';
}
/** Any content block a tool or prompt returns. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** Tool behaviour hints (2025-03-26). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as listed by `tools/list`. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema?: JsonObject & { type: 'object' };
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** 2025-11-25: whether the tool can (`optional`), must (`required`) or cannot (`forbidden`, the default) run as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: JsonObject;
}

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

/** A resource as listed by `resources/list`. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** A resource template as listed by `resources/templates/list`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** The result of `resources/read`. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

/** One argument of a prompt. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed by `prompts/list`. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

/** The `completion` member of a `completion/complete` result. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** Syslog severities used by `logging/setLevel` and `notifications/message`, least severe first. */
export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
/** One of {@link LOGGING_LEVELS}. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** What a client declared in `initialize`. */
export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: JsonObject;
  elicitation?: { form?: JsonObject; url?: JsonObject } & JsonObject;
  experimental?: JsonObject;
  [key: string]: unknown;
}

/** What the server declares in its `initialize` result. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: JsonObject;
  /** 2025-11-25: task-augmented requests (`tasks/list`, `tasks/cancel`, `tools/call`). */
  tasks?: { list?: JsonObject; cancel?: JsonObject; requests?: { tools?: { call?: JsonObject } } };
  /** 2026-07-28: the extensions the server supports, by identifier (e.g. `io.modelcontextprotocol/tasks`). */
  extensions?: Record<string, JsonObject>;
}
