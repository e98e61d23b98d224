/**
 * createServer(): builds every definition once from the decorator records, resolves service
 * instances through the container, binds them to a protocol engine, and serves it.
 */
import {
  InvalidOptionError,
  ProtocolServer,
  serveStdio,
  UriTemplate,
  type RequestContext,
  type StdioConnection,
  type StdioOptions,
  type StructuredLogger,
} from '@typemcp/protocol';
import { linkStartUp } from '@typemcp/protocol/internal';
import { buildServiceDefinition } from '../builder/definition.builder.js';
import { bindService, completionKey, type CompletionTable } from '../builder/service.binder.js';
import type { ServiceDefinition } from '../builder/service-definition.interface.js';
import type { ContainerAdapter } from '../di/container-adapter.interface.js';
import { TypediContainer } from '../di/typedi.container.js';
import { HttpNotInstalledError, TelemetryNotInstalledError } from '../errors.js';
import { duplicateName, invalidInterceptor, unknownCompletionTarget } from '../errors/definition-errors.js';
import { InterceptorChain, type InterceptedFeature, type Invoke } from '../interceptors/interceptor-chain.js';
import type { Interceptor } from '../interceptors/interceptor.interface.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { DtoValidator } from '../pipeline/dto-validator.js';
import { DtoSchemaFactory } from '../schema/index.js';
import { loadSchemaManifest, recordExtensionManifest, recordingManifest, writeSchemaManifest } from '../manifest/schema-manifest.js';
import { ManifestSchemas } from '../manifest/schema-source.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { HealthCheck } from '../lifecycle/lifecycle.interfaces.js';
import { checkServerOptions } from './check-server-options.js';
import type { DefinitionWarning, ServerOptions, TelemetryOptions } from './server-options.interface.js';
import { markServed, unservedServiceWarnings, warnOnStderr } from './unserved-services.js';
import { bindExtensions, checkInstalled } from '../extensions/bind-extensions.js';
import type { ServerExtension } from '../extensions/server-extension.interface.js';

/** Serve over stdio. */
export type StdioListenOptions = { transport: 'stdio' } & StdioOptions;

/**
 * Serve over HTTP (Streamable HTTP at /mcp, HTTP+SSE at /sse) with the optional package
 * @typemcp/http. Core declares only what it knows; @typemcp/http adds its `serveHttp()` options
 * to this interface by declaration merging (a type-only augmentation, active in any program that
 * includes @typemcp/http's types, e.g. through `import type {} from '@typemcp/http'`), so
 * @typemcp/core does not depend on it.
 */
export interface HttpListenOptions {
  transport: 'http';
  /** TCP port (default 3000; 0 picks a free one). */
  port?: number;
  /** Bind address (default 127.0.0.1). */
  host?: string;
}

/** What `listen({ transport: 'http' })` resolves with (@typemcp/http's HttpListener). */
export interface HttpListenerHandle {
  /** The Streamable HTTP endpoint URL. */
  readonly url: string;
  readonly port: number;
  /** Closes the HTTP server and its sessions, then the server (its stop hooks run). */
  close(graceMs?: number): Promise<void>;
  /** Drains (readiness 503, new sessions refused) for `drainMs`, then closes: what SIGTERM does. */
  shutdown(): Promise<void>;
}

/** How to serve: `{ transport: 'stdio' }` or `{ transport: 'http', port, host, ... }`. */
export type ListenOptions = StdioListenOptions | HttpListenOptions;

const HTTP_PACKAGE = '@typemcp/http';

/** Loads @typemcp/http at run time, only when HTTP is asked for. */
function loadHttp(): { serveHttp(server: TypeMcpServer, options: object): Promise<HttpListenerHandle> } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only when HTTP is asked for
    return require(HTTP_PACKAGE) as ReturnType<typeof loadHttp>;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'MODULE_NOT_FOUND' && e.message.includes(HTTP_PACKAGE)) {
      throw new HttpNotInstalledError(`listen({ transport: 'http' }) needs ${HTTP_PACKAGE}; install it: npm install ${HTTP_PACKAGE}`);
    }
    throw error;
  }
}

const OTEL_PACKAGE = '@typemcp/otel';
const OTEL_API = '@opentelemetry/api';

/** Loads @typemcp/otel at run time, only when telemetry is asked for. */
function loadOtel(): { instrumentServer(server: ProtocolServer, options: TelemetryOptions): unknown } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only when telemetry is asked for
    return require(OTEL_PACKAGE) as ReturnType<typeof loadOtel>;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const missing = [OTEL_PACKAGE, OTEL_API].find((name) => e.message.includes(`'${name}'`));
    if (e.code === 'MODULE_NOT_FOUND' && missing) {
      throw new TelemetryNotInstalledError(
        `createServer({ telemetry }) needs ${OTEL_PACKAGE} and ${OTEL_API} (${missing} is missing); install them: npm install ${OTEL_PACKAGE} ${OTEL_API}`,
      );
    }
    throw error;
  }
}

/** A running TypeMCP server. @publicApi */
export class TypeMcpServer {
  /** The protocol engine (advanced use: custom methods, direct registry access). */
  readonly engine: ProtocolServer;
  private readonly container: ContainerAdapter;
  private readonly schemas: ManifestSchemas;
  private readonly validator: DtoValidator;
  private readonly completions: CompletionTable = new Map();
  private readonly bound = new Map<ClassType, { def: ServiceDefinition; unbind: () => void }>();
  private readonly onWarning: (warning: DefinitionWarning) => void;
  private readonly globalInterceptors: readonly Interceptor[];
  /** What core asked the container for, in order: the lifecycle's instances when the container cannot list its own. */
  private readonly asked: object[] = [];
  private readonly lifecycle: Lifecycle;
  private closing?: Promise<void>;

  constructor(options: ServerOptions) {
    checkServerOptions(options);
    const logger = options.logger;
    this.onWarning = options.onWarning ?? (logger ? (w) => logger.warn({ component: 'core', code: w.code }, w.message) : warnOnStderr);
    // Before the engine installs the extensions: each reads what the manifest keeps for it.
    const manifest = loadSchemaManifest(options.schemaManifest, this.onWarning);
    for (const extension of options.extensions ?? []) {
      const part = extension.manifest;
      if (!part) continue;
      if (recordingManifest()) recordExtensionManifest(extension.id, () => part.write());
      else part.read(manifest?.extensions[extension.id], this.onWarning);
    }
    const { name, version, title, description, websiteUrl, icons } = options;
    this.engine = new ProtocolServer({
      ...options,
      serverInfo: Object.fromEntries(
        Object.entries({ name, version, title, description, websiteUrl, icons }).filter(([, v]) => v !== undefined),
      ) as unknown as ProtocolServer['serverInfo'],
    });
    if (options.telemetry) loadOtel().instrumentServer(this.engine, options.telemetry === true ? {} : options.telemetry);
    this.container = options.container ?? new TypediContainer();
    this.lifecycle = new Lifecycle(
      () => this.container.instances?.() ?? this.asked,
      (error, where) => this.engine.reportError(error, where),
      this.onWarning,
    );
    // serveHttp(server) and createMcpExpressApp(server) run the same start-up checks as listen().
    linkStartUp(this.engine, { serving: () => this.reportUnservedServices(), warn: (warning) => this.onWarning({ ...warning }) });
    this.schemas = new ManifestSchemas(new DtoSchemaFactory(options.schema), options.schema, manifest, recordingManifest());
    this.validator = new DtoValidator(this.schemas);
    const storage = getMetadataStorage();
    // Services may inject the server itself (to announce resource updates, add services...).
    this.container.set(TypeMcpServer, this);
    for (const record of storage.classes) this.container.register(record.target);
    // Values first: a class provider is built at once, and must see every value override
    // whatever the order of the list.
    const providers = options.providers ?? [];
    for (const provider of providers) if ('useValue' in provider) this.container.set(provider.provide, provider.useValue);
    for (const provider of providers) {
      if ('useValue' in provider) continue;
      this.container.register(provider.useClass);
      this.container.set(provider.provide, this.build(provider.useClass));
    }
    this.globalInterceptors = (options.interceptors ?? []).map((ref) => this.interceptor(ref, 'createServer({ interceptors })'));
    const services = options.services ?? storage.classes.filter((c) => c.kind === 'service').map((c) => c.target);
    // Completion targets may be declared by a later service: checked once all are bound.
    for (const service of services) this.bind(service, false);
    this.checkCompletions(Array.from(this.bound.values(), (b) => b.def));
  }

  /**
   * Serves a service class (at start-up or later: clients get `list_changed`). Checked like the
   * services given to createServer(): duplicates and @Complete targets that no served service
   * (this one included) declares throw a DefinitionError, and nothing of the class is served.
   */
  addService(target: ClassType): void {
    this.bind(target, true);
  }

  private bind(target: ClassType, checkCompletions: boolean): void {
    if (this.bound.has(target)) return;
    const def = buildServiceDefinition(target, getMetadataStorage(), this.schemas);
    this.checkDuplicates(def);
    if (checkCompletions) this.checkCompletions([def], def);
    checkInstalled(def, (id) => this.engine.extension(id));
    this.container.register(target);
    const instance = this.build(target);
    const storage = getMetadataStorage();
    const outer = [...this.globalInterceptors, ...storage.interceptorsOf(target).map((ref) => this.interceptor(ref, target.name))];
    const interceptorsOf = (method: string) => [
      ...outer,
      ...storage.interceptorsOf(target, method).map((ref) => this.interceptor(ref, `${target.name}.${method}`)),
    ];
    const report = (error: Error, where: string) => this.engine.reportError(error, where);
    const unbindFeatures = bindService(def, instance, this.engine.registry, this.completions, this.validator, report, interceptorsOf);
    let unbindExtensions: () => void;
    try {
      const scopes = storage.classOf(target)?.scopes;
      unbindExtensions = bindExtensions(def, instance, this.engine.extensions as readonly ServerExtension[], this.validator, scopes);
    } catch (error) {
      unbindFeatures();
      throw error;
    }
    this.bound.set(target, {
      def,
      unbind: () => {
        unbindExtensions();
        unbindFeatures();
      },
    });
    markServed(target);
    if (def.completions.length) this.engine.registry.completersChanged();
  }

  /** The container's instance of a class core needs (a service, a class provider, an interceptor), remembered for the lifecycle. */
  private build(target: ClassType): object {
    const instance = this.container.get(target) as object;
    if (!this.asked.includes(instance)) this.asked.push(instance);
    return instance;
  }

  /** An interceptor instance: a class is built by the container (with its dependencies), an instance is taken as is. */
  private interceptor(ref: unknown, where: string): Interceptor {
    let value = ref;
    if (typeof ref === 'function') {
      this.container.register(ref as ClassType);
      value = this.build(ref as ClassType);
    }
    if (value === null || typeof value !== 'object' || typeof (value as Interceptor).intercept !== 'function') throw invalidInterceptor(where, ref);
    return value as Interceptor;
  }

  /**
   * `invoke` wrapped in the server's global interceptors (`createServer({ interceptors })`), for a
   * feature registered on the engine directly instead of by a service, such as a mounted server's
   * (`@typemcp/gateway`): interceptors see `feature` as the call's kind, name, service and method,
   * and `input` as the arguments (a resource's URI as `call.uri`). Without global interceptors it is
   * `invoke` itself, made to return a promise.
   */
  withInterceptors(feature: InterceptedFeature, invoke: Invoke): (input: unknown, rc: RequestContext, uri?: string) => Promise<unknown> {
    if (this.globalInterceptors.length === 0) return (input, rc) => new Promise((resolve) => resolve(invoke(input, rc)));
    return InterceptorChain.compose(this.globalInterceptors, invoke, feature, this.validator);
  }

  /**
   * Stops serving a service class, its completion handlers included (the `completions`
   * capability is derived again); true when it was served.
   */
  removeService(target: ClassType): boolean {
    const entry = this.bound.get(target);
    if (!entry) return false;
    entry.unbind();
    this.bound.delete(target);
    if (entry.def.completions.length) this.engine.registry.completersChanged();
    return true;
  }

  private checkDuplicates(def: ServiceDefinition): void {
    const origins = new Map<string, string>();
    for (const { def: other } of this.bound.values()) {
      for (const t of other.tools) origins.set(`Tool:${t.definition.name}`, t.invocation.origin);
      for (const p of other.prompts) origins.set(`Prompt:${p.definition.name}`, p.invocation.origin);
      for (const r of other.resources) origins.set(`Resource:${'uri' in r.definition ? r.definition.uri : r.definition.uriTemplate}`, r.invocation.origin);
    }
    const check = (kind: 'Tool' | 'Prompt' | 'Resource', name: string, origin: string) => {
      const first = origins.get(`${kind}:${name}`);
      if (first) throw duplicateName(kind, name, first, origin);
      origins.set(`${kind}:${name}`, origin);
    };
    for (const t of def.tools) check('Tool', t.definition.name, t.invocation.origin);
    for (const p of def.prompts) check('Prompt', p.definition.name, p.invocation.origin);
    for (const r of def.resources) check('Resource', 'uri' in r.definition ? r.definition.uri : r.definition.uriTemplate, r.invocation.origin);
  }

  /** Throws for a completion of `checked` whose target no served service (nor `extra`) declares. */
  private checkCompletions(checked: readonly ServiceDefinition[], extra?: ServiceDefinition): void {
    const targets = new Set<string>();
    const declaring = Array.from(this.bound.values(), (b) => b.def);
    if (extra) declaring.push(extra);
    for (const def of declaring) {
      for (const p of def.prompts) for (const a of p.definition.arguments ?? []) targets.add(`${completionKey('prompt', p.definition.name)}#${a.name}`);
      for (const r of def.resources) {
        if ('uriTemplate' in r.definition) {
          for (const v of new UriTemplate(r.definition.uriTemplate).variableNames) targets.add(`${completionKey('resource', r.definition.uriTemplate)}#${v}`);
        }
      }
    }
    for (const def of checked) {
      for (const c of def.completions) {
        const o = c.options;
        const key = 'prompt' in o ? `${completionKey('prompt', o.prompt)}#${o.argument}` : `${completionKey('resource', o.resource)}#${o.argument}`;
        if (!targets.has(key)) {
          const what = 'prompt' in o ? `prompt "${o.prompt}" argument "${o.argument}"` : `resource "${o.resource}" variable "${o.argument}"`;
          throw unknownCompletionTarget(c.invocation.origin, what);
        }
      }
    }
  }

  /**
   * Starts serving. With stdio, resolves at once with the connection (await `closed` to run until
   * stdin ends); with HTTP, once the server listens (requires @typemcp/http). First reports, through
   * `onWarning`, each declared `@McpService()` no server in this process serves.
   *
   * Under `typemcp build` (environment `TYPEMCP_MANIFEST_OUT=<file>`) it serves nothing: it writes
   * the schema manifest of every server built so far in this process to that file and ends the
   * process (exit code 0). So it does when `typemcp build --bundle` trains the bundle's code cache
   * (`TYPEMCP_CODE_CACHE_OUT=<file>`, which the bundle's launcher writes as the process ends):
   * everything up to here is what a start compiles, before any `onInit()` hook runs.
   */
  listen(options: StdioListenOptions): Promise<StdioConnection>;
  listen(options: HttpListenOptions): Promise<HttpListenerHandle>;
  async listen(options: ListenOptions): Promise<StdioConnection | HttpListenerHandle> {
    this.reportUnservedServices();
    const manifestOut = process.env.TYPEMCP_MANIFEST_OUT;
    if (manifestOut) {
      writeSchemaManifest(manifestOut);
      process.exit(0);
    }
    if (process.env.TYPEMCP_CODE_CACHE_OUT) {
      if (options.transport === 'http') loadHttp(); // the module's own start-up, compiled for the cache
      process.exit(0);
    }
    if (options.transport !== 'stdio' && options.transport !== 'http') {
      const transport = String((options as { transport?: unknown } | undefined)?.transport);
      throw new InvalidOptionError('transport', `Invalid option "transport": unknown transport "${transport}"; use 'stdio' or 'http'.`);
    }
    if (options.transport === 'http') {
      const { transport: _transport, ...rest } = options;
      return loadHttp().serveHttp(this, rest); // it awaits start() before listening, and closes the server with it
    }
    const { transport: _transport, ...rest } = options;
    await this.start();
    const connection = serveStdio(this.engine, rest);
    // However the connection ends (stdin closing, SIGTERM/SIGINT, close()), the server closes with it.
    const closed = connection.closed.then(() => this.close());
    return { session: connection.session, closed, close: () => connection.close().then(() => closed) };
  }

  /**
   * Runs the `onInit()` hooks of every instance the container built (services, `@Injectable()`
   * classes, class providers, interceptor classes), one after another in order of creation; the
   * same promise on every call. `listen()` and the testing kit await it before the first request;
   * a hook that throws rejects it (after the instances started before it are stopped).
   */
  start(): Promise<void> {
    return this.lifecycle.start();
  }

  /**
   * The application's readiness checks: every `@ReadinessCheck()` method of the instances the
   * container built, bound to its instance. HTTP's readiness endpoint runs them.
   */
  readinessChecks(): HealthCheck[] {
    return this.lifecycle.readinessChecks(getMetadataStorage());
  }

  /** Each declared `@McpService()` no server in this process serves, to `onWarning` (once per class and process). */
  private reportUnservedServices(): void {
    for (const warning of unservedServiceWarnings(getMetadataStorage())) this.onWarning(warning);
  }

  /**
   * The `logger` option as given (undefined without one): interceptors and services that inject
   * the server can log through it.
   */
  get logger(): StructuredLogger | undefined {
    return this.engine.logger;
  }

  /** The instance the container holds for a class (a service or an injectable). */
  get<T>(target: ClassType<T>): T {
    return this.container.get(target);
  }

  /** Sends `notifications/resources/updated` to the clients subscribed to `uri`. */
  notifyResourceUpdated(uri: string): void {
    this.engine.notifyResourceUpdated(uri);
  }

  /**
   * Closes every session (in-flight requests get `graceMs`), then runs the `onDestroy()` hooks of
   * the container's instances in reverse order of creation, and releases them. The same promise
   * on every call.
   */
  close(graceMs = 0): Promise<void> {
    return (this.closing ??= (async () => {
      await this.engine.close(graceMs);
      await this.lifecycle.stop();
      this.container.dispose?.();
    })());
  }
}

/**
 * Builds a server from decorated service classes. Definition mistakes (DefinitionError) and bad
 * options (InvalidOptionError, `TYPEMCP_ERR_INVALID_OPTION`) throw here, with a stable code.
 * @publicApi
 */
export function createServer(options: ServerOptions): TypeMcpServer {
  return new TypeMcpServer(options);
}
