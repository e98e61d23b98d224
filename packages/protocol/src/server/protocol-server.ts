/**
 * The engine: the feature registry, the method table (built once), capabilities derived from
 * what is registered, and the sessions connected to it. Transports call `connect()` per
 * connection and feed frames to the returned session.
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { Implementation, LoggingLevel, ServerCapabilities } from '../mcp-types.js';
import { FeatureRegistry, type FeatureKind } from '../registry/feature-registry.js';
import type { RevisionFeatures } from '../revisions.js';
import type { Transport } from '../transport/transport.interface.js';
import { ProtocolErrorCode } from '../errors.js';
import { DefinitionError } from '../registry/definition.error.js';
import { InvalidOptionError } from '../options/invalid-option.error.js';
import { writeErrorLine } from '../util/report-error.js';
import { completionHandlers } from './handlers/completion.handlers.js';
import { lifecycleHandlers, lifecycleNotifications } from './handlers/lifecycle.handlers.js';
import type { MethodHandler, NotificationHandler, SetHandlerOptions } from './handlers/method-handler.type.js';
import { promptHandlers } from './handlers/prompts.handlers.js';
import { resourceHandlers } from './handlers/resources.handlers.js';
import { toolHandlers } from './handlers/tools.handlers.js';
import { discoveryHandlers } from './handlers/discovery.handlers.js';
import { subscriptionHandlers, type Listener } from './handlers/subscriptions.handlers.js';
import { MetaKey } from './modern-request.js';
import type { CacheHint, RequestContext } from './request-context.js';
import { RequestStateSealer } from './request-state.js';
import { paginate, type Page } from './pagination.js';
import { checkServerOptions } from '../options/check-server-options.js';
import type { CacheOptions, ProtocolServerOptions } from '../options/server-options.js';
import { PROTOCOL_DEFAULTS } from '../options/defaults.js';
import { shapeCapabilities } from './revision-shaper.js';
import { FeatureLists } from './feature-lists.js';
import type { ListKind, ServerHost } from './server-host.js';
import type { SessionContract } from './contracts.js';
import { Session } from './session.js';
import { HOOK_NAMES, Hooks, type HookHandlers, type HookName } from './hooks.js';
import type { RequestTelemetry } from './telemetry.js';
import { principalId, type StructuredLogger } from '../logging/structured-logger.js';
import { TASKS_EXTENSION, TaskEngine, type TaskEngineHost } from './tasks/task-engine.js';
import { taskHandlers } from './tasks/tasks.handlers.js';
import { UserStates } from '../user-state/user-states.js';
import { ExtensionSet } from './extensions/extension-set.js';
import type { ExtensionApi, McpExtension } from './extensions/extension.types.js';
import { installExtension, type InstallTarget } from './extensions/install-extension.js';
import { MethodTable } from './method-table.js';

export type { CacheOptions, ProtocolServerOptions };

/** The built-in methods whose 2026-07-28 results carry caching hints, and the option that sets them. */
const CACHEABLE: Readonly<Record<string, keyof CacheOptions>> = {
  'server/discover': 'discover',
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'templates',
  'resources/read': 'read',
};

/**
 * A change that clients hear about: a list changed (`notifications/<list>/list_changed`) or a
 * resource was updated (`notifications/resources/updated`). @publicApi
 */
export type ServerChange = { readonly kind: 'listChanged'; readonly list: FeatureKind } | { readonly kind: 'resourceUpdated'; readonly uri: string };

const defaultOnError = (error: unknown, where: string): void => writeErrorLine('[typemcp] internal error in', error, where);

/** @publicApi */
export class ProtocolServer implements ServerHost {
  /** Tools, resources, templates and prompts; changes are announced to clients. */
  readonly registry = new FeatureRegistry();
  readonly serverInfo: Implementation;
  readonly instructions?: string;
  readonly requestTimeoutMs: number;
  readonly maxDepth: number;
  /**
   * Whether lists leave out what an authenticated caller's scopes do not reach (option
   * `hideUnauthorized`, default true; an HTTP transport's `auth.hideUnauthorized` sets it).
   */
  hideUnauthorized: boolean;
  private readonly pageSize: number;
  private readonly options: ProtocolServerOptions;
  private readonly methods = new MethodTable();
  private readonly notifications = new Map<string, NotificationHandler>();
  /** The engine's own notifications: replacing one takes `{ replace: true }` (as for its methods). */
  private readonly builtInNotifications = new Set(Object.keys(lifecycleNotifications));
  private readonly sessions = new Set<Session>();
  private readonly lists: FeatureLists;
  private capabilityCache?: { version: number; value: ServerCapabilities };
  /** Capabilities shaped per revision, with the installed extensions' settings. */
  private readonly shapedCapabilities = new Map<string, { version: number; epoch: number; value: ServerCapabilities }>();
  /** Bumped when an extension is installed or its settings change. */
  private capabilityEpoch = 0;
  /** @internal The installed extensions. */
  readonly extensionSet = new ExtensionSet();
  /** Methods whose 2026-07-28 results carry caching hints, and the option that sets them. */
  private readonly cacheable = new Map<string, keyof CacheOptions>(Object.entries(CACHEABLE));
  private readonly pendingChanges = new Set<FeatureKind>();
  /** @internal Open `subscriptions/listen` requests (2026-07-28). */
  readonly listeners = new Set<Listener>();
  /** @internal Seals and opens multi round-trip request state. */
  readonly requestStates: RequestStateSealer;
  /** Per-user state (`ctx.userState(slot)`), in the `userState` option's store (memory by default). */
  readonly userStates: UserStates;
  /** @internal The registered hooks; undefined until the first one (then the one test per notification). */
  hooks?: Hooks;
  /** @internal The server's telemetry (`useTelemetry`); undefined while there is none. */
  telemetry?: RequestTelemetry;
  /** The `logger` option as given (transports and upper layers log through it too); undefined without one. */
  readonly logger?: StructuredLogger;
  /** `logger` bound to `{ component: 'engine' }`. */
  private readonly diagnostics?: StructuredLogger;
  /** Where changes go instead of this process's clients (see setChangeRelay); undefined: delivered here. */
  private relay?: (change: ServerChange) => void;
  private taskEngine?: TaskEngine;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: ProtocolServerOptions) {
    checkServerOptions(options);
    this.options = options;
    this.serverInfo = options.serverInfo;
    this.instructions = options.instructions;
    this.pageSize = options.pageSize ?? PROTOCOL_DEFAULTS.pageSize;
    this.requestTimeoutMs = options.requestTimeoutMs ?? PROTOCOL_DEFAULTS.requestTimeoutMs;
    this.maxDepth = options.maxDepth ?? PROTOCOL_DEFAULTS.maxDepth;
    this.hideUnauthorized = options.hideUnauthorized ?? true;
    this.requestStates = new RequestStateSealer(options.requestState);
    this.userStates = new UserStates(options.userState);
    this.lists = new FeatureLists(this.registry, this.extensionSet, this.pageSize, () => this.hideUnauthorized);
    this.logger = options.logger;
    this.diagnostics = options.logger?.child({ component: 'engine' });
    const tables = [lifecycleHandlers, discoveryHandlers, subscriptionHandlers, toolHandlers, resourceHandlers, promptHandlers, completionHandlers];
    for (const table of tables) {
      for (const [method, handler] of Object.entries(table(this))) this.methods.addBuiltIn(method, handler);
    }
    for (const [method, handler] of Object.entries(taskHandlers(() => this.tasks))) this.methods.addBuiltIn(method, handler);
    for (const [method, handler] of Object.entries(lifecycleNotifications)) this.notifications.set(method, handler);
    // Tasks shared by several instances: this one takes part (renews, reaps, takes over) from the start.
    if (options.tasks?.store?.cluster) void this.tasks;
    const onRootsChanged = options.onRootsChanged;
    if (onRootsChanged) this.notifications.set('notifications/roots/list_changed', (_params, session) => onRootsChanged(session));
    this.registry.onChange((kind) => this.scheduleListChanged(kind));
    const hooks = options.hooks ?? {};
    for (const name of HOOK_NAMES) {
      const given = hooks[name] as HookHandlers[HookName] | readonly HookHandlers[HookName][] | undefined;
      for (const fn of Array.isArray(given) ? given : given ? [given] : []) this.addHook(name, fn as HookHandlers[HookName]);
    }
    for (const extension of options.extensions ?? []) this.useExtension(extension);
  }

  /**
   * Registers a hook, run after those already registered under `name`: `onRequest`,
   * `onResponse` (result or error, duration), `onNotification`, `onError`, `onSessionOpen`,
   * `onSessionClose`. Hooks observe the requests a method handler answers (not those the
   * admission ladder refuses). A hook that throws is reported to `onError` and never changes
   * the request. Until the first hook is added, requests take the path they take without hooks.
   */
  addHook<K extends HookName>(name: K, fn: HookHandlers[K]): void {
    if (!HOOK_NAMES.includes(name)) throw new InvalidOptionError('hooks', `Unknown hook "${String(name)}"; use one of ${HOOK_NAMES.join(', ')}.`);
    if (typeof fn !== 'function') throw new InvalidOptionError(`hooks.${name}`, `Invalid hook "${name}": give a function.`);
    if (!this.hooks) {
      const hooks = new Hooks((error, where, fromErrorHook) => this.report(error, where, undefined, !fromErrorHook));
      this.methods.useHooks(hooks);
      this.hooks = hooks;
    }
    this.hooks.add(name, fn);
  }

  /**
   * Sets the server's telemetry (what `@typemcp/otel`'s `instrumentServer` installs): it runs
   * each request's handler in its own context and sees every answer. One per server: a second
   * call throws an InvalidOptionError. Until it is called, requests take the path they take
   * without telemetry.
   */
  useTelemetry(telemetry: RequestTelemetry): void {
    if (this.telemetry) throw new InvalidOptionError('telemetry', 'Invalid option "telemetry": this server already has telemetry.');
    if (telemetry === null || typeof telemetry !== 'object' || typeof telemetry.request !== 'function') {
      throw new InvalidOptionError('telemetry', 'Invalid option "telemetry": give an object with a request() method.');
    }
    this.telemetry = telemetry;
  }

  /**
   * Adds the handler of a method (for upper layers; an extension declares its methods instead).
   * Replacing one of the engine's own methods (`initialize`, `tools/call`...) or one an installed
   * extension added takes `{ replace: true }`; without it this throws a DefinitionError
   * (`TYPEMCP_ERR_BUILTIN_METHOD`). A replaced method keeps the extensions' result decorators.
   */
  setMethodHandler(method: string, handler: MethodHandler, options?: SetHandlerOptions): void {
    const owner = this.methods.ownerOf(method);
    if (options?.replace !== true && (owner?.by === 'engine' || owner?.by === 'extension')) {
      const by = owner.by === 'engine' ? 'the engine' : `the extension "${owner.id}"`;
      throw new DefinitionError(
        ProtocolErrorCode.BuiltinMethod,
        `The method "${method}" is handled by ${by}; pass { replace: true } to replace its handler on purpose.`,
      );
    }
    this.methods.set(method, handler);
  }

  /**
   * Installs an MCP extension (SEP-2133): advertises its settings in `capabilities.extensions`
   * (per revision), adds its methods, applies its decorators and visibility rules, then calls
   * its `setup`. Throws a DefinitionError for an invalid identifier or part
   * (`TYPEMCP_ERR_INVALID_EXTENSION`), an identifier already installed
   * (`TYPEMCP_ERR_DUPLICATE_EXTENSION`), a method the engine handles (`TYPEMCP_ERR_BUILTIN_METHOD`)
   * or one already added (`TYPEMCP_ERR_DUPLICATE_METHOD`). Clients already initialized keep the
   * capabilities they were given.
   */
  useExtension(extension: McpExtension): void {
    installExtension(this.installTarget(), extension);
  }

  /** The installed extension of that identifier, if any. */
  extension(id: string): McpExtension | undefined {
    return this.extensionSet.get(id);
  }

  /** The installed extensions, in the order they were installed. */
  get extensions(): readonly McpExtension[] {
    return this.extensionSet.all();
  }

  private installTarget(): InstallTarget {
    return {
      extensions: this.extensionSet,
      ownerOf: (method) => this.methods.ownerOf(method),
      addMethod: (id, method, handler, cache) => {
        if (cache) this.cacheable.set(method, cache === 'list' ? 'lists' : 'read');
        this.methods.setExtensionMethod(id, method, handler);
      },
      decorateResults: (method, decorator) => this.methods.decorateResults(method, decorator),
      changed: () => {
        this.capabilityEpoch++;
        this.lists.clear();
      },
      api: (id) => this.extensionApi(id),
    };
  }

  private extensionApi(id: string): ExtensionApi {
    return {
      id,
      registry: this.registry,
      logger: this.logger,
      page: (items, cursor) => paginate(items, cursor, this.pageSize),
      listable: (feature, ctx) => {
        const principal = ctx.session.principal;
        return principal === undefined || !this.hideUnauthorized || this.registry.permits(feature, principal);
      },
      settingsChanged: () => void this.capabilityEpoch++,
      reportError: (error, where, ctx) => this.reportError(error, where, ctx),
    };
  }

  /**
   * Replaces the handler of `method` (built-in or set) by what `wrap` makes of it, for code that
   * adds behaviour around a method without rewriting it (a gateway watching `resources/subscribe`).
   * Hooks keep running once per request. Throws a DefinitionError when `method` has no handler.
   */
  wrapMethodHandler(method: string, wrap: (inner: MethodHandler) => MethodHandler): void {
    if (!this.methods.wrap(method, wrap))
      throw new DefinitionError(ProtocolErrorCode.NoMethodHandler, `The method "${method}" has no handler to wrap; set one with setMethodHandler() first.`);
  }

  /**
   * Adds or replaces the handler of a client notification (unknown notifications are ignored).
   * Replacing `notifications/initialized` or `notifications/cancelled` takes `{ replace: true }`;
   * without it this throws a DefinitionError (`TYPEMCP_ERR_BUILTIN_METHOD`).
   */
  setNotificationHandler(method: string, handler: NotificationHandler, options?: SetHandlerOptions): void {
    if (options?.replace !== true && this.builtInNotifications.has(method)) {
      throw new DefinitionError(
        ProtocolErrorCode.BuiltinMethod,
        `The notification "${method}" is handled by the engine; pass { replace: true } to replace its handler on purpose.`,
      );
    }
    this.notifications.set(method, handler);
  }

  /**
   * Tasks: the engine running tools as tasks and answering `tasks/*` (made on first use, with the
   * `tasks` option's store, memory by default).
   */
  get tasks(): TaskEngine {
    return (this.taskEngine ??= new TaskEngine(this.taskHost(), this.options.tasks));
  }

  /** What the task engine needs from this server: a task run again elsewhere runs on a session with nobody on the other end. */
  private taskHost(): TaskEngineHost {
    return {
      reportError: (error, where, ctx) => this.reportError(error, where, ctx),
      toolFor: (name, principal) => this.registry.toolFor(name, principal),
      detachedSession: (run) => {
        const session = new Session(this, { send: () => undefined });
        session.principal = run.principal;
        session.assumeInitialized(run.revision, run.clientCapabilities);
        session.clientInfo = run.clientInfo;
        return session;
      },
    };
  }

  /**
   * Cancels the tasks running in this process that were created on `session` (all of them
   * without one). The stdio transport calls it when its connection ends.
   */
  cancelTasks(session?: SessionContract, reason = 'The connection closed.'): void {
    this.taskEngine?.cancelRunning(reason, session);
  }

  /** The handler of `method`, built-in or set with `setMethodHandler`, if any. */
  methodHandler(method: string): MethodHandler | undefined {
    return this.methods.get(method);
  }

  /** The handler of a client notification, set with `setNotificationHandler` or the engine's own, if any. */
  notificationHandler(method: string): NotificationHandler | undefined {
    return this.notifications.get(method);
  }

  /** Opens a session over a transport. Feed it frames with `session.receive()`. */
  connect(transport: Transport): Session {
    const session = new Session(this, transport);
    this.sessions.add(session);
    this.hooks?.emit('onSessionOpen', session);
    return session;
  }

  /** @internal Called when a session closes. */
  detach(session: Session): void {
    if (!this.sessions.delete(session)) return;
    this.hooks?.emit('onSessionClose', session);
    this.telemetry?.sessionClosed?.(session);
  }

  /** The sessions currently open. */
  get openSessions(): ReadonlySet<Session> {
    return this.sessions;
  }

  /**
   * Capabilities from what is registered, merged with the configured ones, before they are
   * shaped for a revision. `extensions` is only the configured one: what each revision
   * advertises, the installed extensions' settings included, is {@link capabilitiesFor}.
   */
  capabilities(): ServerCapabilities {
    const version = this.registry.generation;
    if (this.capabilityCache?.version === version) return this.capabilityCache.value;
    const counts = this.registry.counts();
    const caps: ServerCapabilities = { logging: {} };
    if (counts.tools) caps.tools = { listChanged: true };
    if (counts.resources || counts.templates) caps.resources = { subscribe: true, listChanged: true };
    if (counts.prompts) caps.prompts = { listChanged: true };
    if (this.registry.hasCompleters()) caps.completions = {};
    // Shaped per revision: 2025-11-25 sees `tasks`, 2026-07-28 the extension (capabilitiesFor).
    if (this.registry.hasTaskTools()) caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    const value = { ...caps, ...this.options.capabilities };
    this.capabilityCache = { version, value };
    return value;
  }

  /**
   * What the server declares to a client of revision `f` (the `initialize` result, `server/discover`):
   * {@link capabilities} shaped for the revision, with `extensions` holding each installed
   * extension's settings for it (and the configured `capabilities.extensions` over them). SEP-2133
   * negotiates extensions in `initialize` too, so handshake revisions carry `extensions` when
   * there is any; the tasks extension is 2026-07-28's (2025-11-25 has the `tasks` capability).
   */
  capabilitiesFor(f: RevisionFeatures): ServerCapabilities {
    const version = this.registry.generation;
    const epoch = this.capabilityEpoch;
    const cached = this.shapedCapabilities.get(f.revision);
    if (cached?.version === version && cached.epoch === epoch) return cached.value;
    const { extensions: configured, ...caps } = this.capabilities();
    const value = shapeCapabilities(caps, f);
    const extensions: Record<string, JsonObject> = this.extensionSet.settings(f);
    if (f.modern && this.registry.hasTaskTools()) extensions[TASKS_EXTENSION] = {};
    Object.assign(extensions, configured);
    if (Object.keys(extensions).length) value.extensions = extensions;
    this.shapedCapabilities.set(f.revision, { version, epoch, value });
    return value;
  }

  /**
   * @internal One page of a list, shaped for the request's revision; shaped lists are cached
   * until the registry changes. Filtered per request for the principal (guards, scopes) and by
   * the installed extensions' visibility rules.
   */
  listPage(kind: ListKind, ctx: RequestContext, cursor: unknown): Page<unknown> {
    return this.lists.page(kind, ctx, cursor);
  }

  /**
   * Replaces the keys sealing 2026-07-28 `requestState` (the first seals, all open): instances
   * behind one load balancer that learn a shared key after start-up (from a store) use this.
   */
  useRequestStateKeys(keys: readonly (string | Uint8Array)[]): void {
    this.requestStates.useKeys(keys);
  }

  /**
   * Hands every change (list changed, resource updated) to `relay` instead of delivering it to
   * this process's clients: several processes serving one set of clients publish their changes,
   * and each delivers what it receives with `deliverChange`. `undefined` restores local delivery.
   */
  setChangeRelay(relay: ((change: ServerChange) => void) | undefined): void {
    this.relay = relay;
  }

  /**
   * Delivers a change to this process's clients: legacy sessions that declared interest (and
   * that `accept` takes, when given) and matching `subscriptions/listen` streams.
   */
  deliverChange(change: ServerChange, accept?: (session: SessionContract) => boolean): void {
    if (change.kind === 'resourceUpdated') return this.deliverResourceUpdated(change.uri, accept);
    const kind = change.list;
    for (const session of this.sessions) {
      if (session.serverCapabilities[kind]?.listChanged && (!accept || accept(session))) session.notify(`notifications/${kind}/list_changed`);
    }
    for (const listener of this.listeners) {
      if (listener.filter[`${kind}ListChanged`]) listener.send(`notifications/${kind}/list_changed`, {});
    }
  }

  // Registering many features at start-up or in a burst sends one notification per kind.
  private scheduleListChanged(kind: FeatureKind): void {
    if (this.sessions.size === 0 && !this.relay) return;
    if (this.pendingChanges.size === 0) setImmediate(() => this.flushListChanged());
    this.pendingChanges.add(kind);
  }

  private flushListChanged(): void {
    const relay = this.relay;
    if (relay) {
      for (const list of this.pendingChanges) relay({ kind: 'listChanged', list });
      return this.pendingChanges.clear();
    }
    const current = this.registry.generation;
    for (const kind of this.pendingChanges) {
      for (const session of this.sessions) {
        // A session initialized after the change already lists the new state.
        if (session.registryGenerationAtInit < current && session.serverCapabilities[kind]?.listChanged) {
          session.notify(`notifications/${kind}/list_changed`);
        }
      }
      for (const listener of this.listeners) {
        if (listener.filter[`${kind}ListChanged`]) listener.send(`notifications/${kind}/list_changed`, {});
      }
    }
    this.pendingChanges.clear();
  }

  /** Sends `notifications/resources/updated` to every session and listener subscribed to `uri`. */
  notifyResourceUpdated(uri: string): void {
    if (this.relay) return this.relay({ kind: 'resourceUpdated', uri });
    this.deliverResourceUpdated(uri);
  }

  private deliverResourceUpdated(uri: string, accept?: (session: SessionContract) => boolean): void {
    for (const session of this.sessions) {
      if (session.isSubscribed(uri) && (!accept || accept(session))) session.notify('notifications/resources/updated', { uri });
    }
    for (const listener of this.listeners) {
      if (listener.filter.resourceSubscriptions?.includes(uri)) listener.send('notifications/resources/updated', { uri });
    }
  }

  /**
   * @internal A modern request's result: `resultType`, the server's identity in `_meta`, and
   * caching hints on the cacheable results that completed.
   */
  modernResult(ctx: RequestContext, body: JsonObject): JsonObject {
    const out: JsonObject = { resultType: 'complete', ...body };
    if (this.options.serverInfoInResults !== false) {
      out._meta = { ...(body._meta as JsonObject | undefined), [MetaKey.serverInfo]: this.serverInfo as unknown as JsonObject };
    }
    const kind = this.cacheable.get(ctx.method);
    if (kind && out.resultType === 'complete') {
      const hint = this.cacheHint(kind, ctx);
      out.ttlMs = hint.ttlMs;
      out.cacheScope = hint.cacheScope;
    }
    return out;
  }

  private cacheHint(kind: keyof CacheOptions, ctx: RequestContext): CacheHint {
    const configured = this.options.cache ?? {};
    const read = kind === 'read';
    const hint = { ...(read ? undefined : configured.lists), ...configured[kind], ...ctx.cacheHint };
    // A list that an extension's visibility rule filters differs from one request to the next
    // (what the client declared), as one with guarded tools does: no shared cache may keep it.
    const filtered = kind !== 'lists' && kind !== 'discover' && kind !== 'read' && this.extensionSet.visibleIn[kind] !== undefined;
    const personal = ctx.principal !== undefined || (kind === 'tools' && this.registry.hasGuardedTools()) || filtered;
    const ttlMs = typeof hint.ttlMs === 'number' && hint.ttlMs >= 0 ? Math.floor(hint.ttlMs) : read ? 0 : PROTOCOL_DEFAULTS.listTtlMs;
    return { ttlMs, cacheScope: hint.cacheScope ?? (personal || read ? 'private' : 'public') };
  }

  /** Sends a log message to every session whose level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.sessions) session.log(level, data, logger);
  }

  /** Reports an internal error to `onError` and the `onError` hooks (never sent to the client). */
  reportError(error: unknown, where: string, ctx?: RequestContext): void {
    this.report(error, where, ctx, true);
  }

  private report(error: unknown, where: string, ctx: RequestContext | undefined, toHooks: boolean): void {
    if (this.diagnostics) this.logError(this.diagnostics, error, where, ctx);
    if (this.options.onError) this.options.onError(error, where);
    else if (!this.diagnostics) defaultOnError(error, where);
    ctx?.observation?.failed?.(error);
    if (toHooks) this.hooks?.emit('onError', ctx ? { error, where, ctx } : { error, where });
  }

  /** One `error` record: what failed, where, and which request (never its params). */
  private logError(logger: StructuredLogger, error: unknown, where: string, ctx: RequestContext | undefined): void {
    const fields: Record<string, unknown> = { err: error, where };
    if (ctx) {
      fields.method = ctx.method;
      fields.requestId = ctx.id;
      const session = ctx.session.sessionId;
      if (session !== undefined) fields.sessionId = session;
      const principal = principalId(ctx.principal);
      if (principal !== undefined) fields.principalId = principal;
    }
    try {
      logger.error(fields, 'internal error');
    } catch (failure) {
      // A logger that throws must not take the request down; its own failure goes to stderr.
      defaultOnError(failure, 'logger');
    }
  }

  /**
   * Closes every session, giving in-flight requests `graceMs` to finish (open subscriptions end
   * with their result).
   */
  async close(graceMs = 0): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close(graceMs)));
    await this.taskEngine?.close();
  }
}
