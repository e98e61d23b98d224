/**
 * What a session and the method handlers need from the server that owns them: the method and
 * notification tables, the registry, limits, and a few services. `ProtocolServer` implements
 * it; depending on this narrow interface instead keeps the session and the handlers apart from
 * the server's construction (no import cycle).
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { Implementation, ServerCapabilities } from '../mcp-types.js';
import type { FeatureRegistry, ListKind } from '../registry/feature-registry.js';
import type { Listener, SessionContract } from './contracts.js';
import type { RevisionFeatures } from '../revisions.js';
import type { MethodHandler, NotificationHandler } from './handlers/method-handler.type.js';
import type { Page } from './pagination.js';
import type { RequestContext } from './request-context.js';
import type { RequestStateSealer } from './request-state.js';
import type { Hooks } from './hooks.js';
import type { RequestTelemetry } from './telemetry.js';
import type { TaskEngine } from './tasks/task-engine.js';
import type { UserStates } from '../user-state/user-states.js';
import type { ExtensionSet } from './extensions/extension-set.js';

export type { ListKind };

/** The server as its sessions and method handlers see it. */
export interface ServerHost {
  readonly registry: FeatureRegistry;
  readonly serverInfo: Implementation;
  readonly instructions?: string;
  readonly maxDepth: number;
  readonly requestTimeoutMs: number;
  readonly requestStates: RequestStateSealer;
  /** Open `subscriptions/listen` requests (2026-07-28). */
  readonly listeners: Set<Listener>;
  /** The registered hooks; undefined while there is none. */
  readonly hooks?: Hooks;
  /** The server's telemetry; undefined while there is none. */
  readonly telemetry?: RequestTelemetry;
  /** Tasks (created on first use). */
  readonly tasks: TaskEngine;
  /** Per-user state. */
  readonly userStates: UserStates;
  /** The installed extensions. */
  readonly extensionSet: ExtensionSet;
  capabilities(): ServerCapabilities;
  /** What the server declares to a client of that revision (extensions included). */
  capabilitiesFor(features: RevisionFeatures): ServerCapabilities;
  methodHandler(method: string): MethodHandler | undefined;
  notificationHandler(method: string): NotificationHandler | undefined;
  listPage(kind: ListKind, ctx: RequestContext, cursor: unknown): Page<unknown>;
  modernResult(ctx: RequestContext, body: JsonObject): JsonObject;
  reportError(error: unknown, where: string, ctx?: RequestContext): void;
  detach(session: SessionContract): void;
}
