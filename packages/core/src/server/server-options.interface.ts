import type { Implementation, ProtocolServerOptions } from '@typemcp/protocol';
import type { ContainerAdapter } from '../di/container-adapter.interface.js';
import type { InterceptorRef } from '../interceptors/interceptor.interface.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { DtoSchemaOptions } from '../schema/index.js';
import type { ServerExtension } from '../extensions/server-extension.interface.js';

/** Replaces what the container would build for `provide`: a ready value or another class. */
export type Provider = { provide: unknown; useValue: unknown } | { provide: ClassType; useClass: ClassType };

/** A start-up warning: something that builds but is probably a mistake. @publicApi */
export interface DefinitionWarning {
  /** A stable code such as `TYPEMCP_WARN_UNSERVED_SERVICE`. */
  code: string;
  message: string;
}

/**
 * `createServer({ telemetry })` with providers of its own (OpenTelemetry's `TracerProvider` and
 * `MeterProvider` fit these shapes); without them the global ones are used.
 * @publicApi
 */
export interface TelemetryOptions {
  /** An OpenTelemetry `TracerProvider` (default: the global one). */
  tracerProvider?: { getTracer(name: string, version?: string, options?: object): unknown };
  /** An OpenTelemetry `MeterProvider` (default: the global one). */
  meterProvider?: { getMeter(name: string, version?: string, options?: object): unknown };
}

/** Options of {@link createServer}: the server's identity (name, version, title...) and how it is built. @publicApi */
export interface ServerOptions
  extends
    Implementation,
    Pick<
      ProtocolServerOptions,
      | 'pageSize'
      | 'requestTimeoutMs'
      | 'maxDepth'
      | 'onError'
      | 'logger'
      | 'onRootsChanged'
      | 'requestState'
      | 'cache'
      | 'serverInfoInResults'
      | 'hooks'
      | 'hideUnauthorized'
      | 'tasks'
      | 'userState'
    > {
  /** Guidance for the model, sent in `initialize`. */
  instructions?: string;
  /** The `@McpService()` classes to serve (default: every one declared so far). */
  services?: ClassType[];
  /** Overrides of what the container builds (test doubles, configuration values). */
  providers?: Provider[];
  /** The DI container (default: a fresh typedi container). */
  container?: ContainerAdapter;
  /**
   * Where start-up warnings go (default: a `warn` record `{ component: 'core', code }` to
   * `logger` when there is one, else one line each on stderr); `() => {}` silences them.
   */
  onWarning?: (warning: DefinitionWarning) => void;
  /** JSON Schema generation options. */
  schema?: DtoSchemaOptions;
  /**
   * The schema manifest `typemcp build` generated: a path (relative to the working directory), or
   * `false` to derive every schema at start-up. Default: the environment variable
   * `TYPEMCP_MANIFEST` (a path, or `off` to disable), else `typemcp.manifest.json` beside the entry
   * script (`process.argv[1]`) when there is one. A manifest that does not match the running code (its fingerprint: the
   * project files, the schema libraries' versions) is ignored with one `TYPEMCP_WARN_STALE_MANIFEST`
   * warning, and schemas are derived at start-up as without it.
   */
  schemaManifest?: string | false;
  /**
   * Interceptors around every tool, resource and prompt call, outside class and method ones
   * (`@UseInterceptors()`), first listed outermost: classes (built by the container) or instances.
   */
  interceptors?: InterceptorRef[];
  /**
   * MCP extensions (SEP-2133) to serve, in order: `@typemcp/*` extension packages, or your own
   * {@link ServerExtension}. None by default (every extension is opt-in); a class carrying
   * `ExtensionData` for one that is not installed is refused.
   */
  extensions?: readonly ServerExtension[];
  /**
   * OpenTelemetry after the MCP semantic conventions (spans, metrics, trace context through
   * `_meta`), with the optional package @typemcp/otel: `true` for the global providers, or the
   * providers to use. The application registers the SDK and its exporters.
   */
  telemetry?: boolean | TelemetryOptions;
}
