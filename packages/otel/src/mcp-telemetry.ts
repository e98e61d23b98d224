/**
 * OpenTelemetry for one TypeMCP engine, after the semantic conventions for MCP: a SERVER span per
 * request (active while its handler runs), the operation and session duration histograms, and
 * trace context in and out through `params._meta` (falling back to the HTTP request's headers on
 * the way in). Everything goes through @opentelemetry/api: with no SDK registered it is the API's
 * no-op.
 */
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Link,
  type Meter,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type {
  JsonObject,
  JsonRpcErrorObject,
  MethodHandler,
  RequestContext,
  RequestHeaders,
  RequestObservation,
  RequestTelemetry,
  SessionContract,
} from '@typemcp/protocol';
import { CANCELLED, DURATION_BUCKETS, McpAttr, McpMetric, TOOL_ERROR } from './attributes.js';

/** The instrumentation scope of the tracer and the meter. */
export const INSTRUMENTATION_NAME = '@typemcp/otel';
const INSTRUMENTATION_VERSION = '0.1.0';

/** Options of {@link instrumentServer} and {@link McpTelemetry}. @publicApi */
export interface McpTelemetryOptions {
  /** Where spans go (default: the global provider, `trace.setGlobalTracerProvider` or the Node SDK's). */
  tracerProvider?: TracerProvider;
  /** Where metrics go (default: the global provider, looked up on the first measurement). */
  meterProvider?: MeterProvider;
}

/** Reads a carrier of string values: `params._meta` or HTTP headers (other values are ignored). */
const carrierGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  },
};

const metaSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The methods whose target names the span, and the attribute it goes in. */
const TARGETS: Readonly<Record<string, string>> = { 'tools/call': McpAttr.toolName, 'prompts/get': McpAttr.promptName };
/** The methods that carry a resource URI. */
const RESOURCE_METHODS: ReadonlySet<string> = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

interface SessionRecord {
  readonly start: number;
  readonly attributes: Attributes;
}

/**
 * The engine's {@link RequestTelemetry} made of OpenTelemetry: install it with
 * `server.useTelemetry(new McpTelemetry())`, or {@link instrumentServer}.
 * @publicApi
 */
export class McpTelemetry implements RequestTelemetry {
  private readonly tracer: Tracer;
  private readonly meterProvider?: MeterProvider;
  private instruments?: { operation: Histogram; session: Histogram };
  /** Sessions that completed `initialize`, for `mcp.server.session.duration`. */
  private readonly sessions = new WeakMap<SessionContract, SessionRecord>();

  constructor(options: McpTelemetryOptions = {}) {
    // Without a provider: the API's proxy tracer, which follows a provider registered later.
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
    this.meterProvider = options.meterProvider;
  }

  /** The histograms, made on first use: the global meter provider has no proxy, so it is read late. */
  private get histograms(): { operation: Histogram; session: Histogram } {
    if (this.instruments) return this.instruments;
    const meter: Meter = (this.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
    const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
    return (this.instruments = {
      operation: meter.createHistogram(McpMetric.serverOperationDuration, {
        unit: 's',
        description: 'MCP request duration as observed on the receiver from the time it was received until the result or ack is sent.',
        advice,
      }),
      session: meter.createHistogram(McpMetric.serverSessionDuration, {
        unit: 's',
        description: 'The duration of the MCP session as observed on the MCP server.',
        advice,
      }),
    });
  }

  /** Starts the SERVER span of a request: its parent from `_meta`, else from the HTTP headers, else the current context. */
  request(method: string, params: JsonObject, ctx: RequestContext): RequestObservation {
    // The span's attributes and, built alongside in METRIC_ATTRIBUTES order, the operation
    // histogram's (its low-cardinality subset): end() then records them as they are when the
    // request succeeds, instead of copying and filtering the span's.
    const attributes: Attributes = { [McpAttr.methodName]: method, [McpAttr.requestId]: String(ctx.id) };
    const measured: Attributes = { [McpAttr.methodName]: method };
    let name = method;
    const targetKey = TARGETS[method];
    if (targetKey !== undefined && typeof params.name === 'string') {
      attributes[targetKey] = measured[targetKey] = params.name;
      name = `${method} ${params.name}`;
    }
    if (method === 'tools/call') attributes[McpAttr.operationName] = measured[McpAttr.operationName] = 'execute_tool';
    if (RESOURCE_METHODS.has(method) && typeof params.uri === 'string') attributes[McpAttr.resourceUri] = params.uri;
    const sessionId = ctx.session.sessionId;
    if (sessionId !== undefined) attributes[McpAttr.sessionId] = sessionId;
    const version = ctx.modern?.features.revision ?? ctx.session.features?.revision;
    if (version !== undefined) attributes[McpAttr.protocolVersion] = measured[McpAttr.protocolVersion] = version;
    const headers = ctx.headers;
    attributes[McpAttr.networkTransport] = measured[McpAttr.networkTransport] = headers === undefined ? 'pipe' : 'tcp';
    if (headers !== undefined) attributes[McpAttr.networkProtocolName] = measured[McpAttr.networkProtocolName] = 'http';

    const ambient = context.active();
    let parent = extracted(params._meta) ?? (headers === undefined ? undefined : extracted(headers));
    let links: Link[] | undefined;
    if (parent === undefined) {
      parent = ambient;
    } else {
      // The conventions: the client's context is the parent; the transport's (an HTTP span) a link.
      const transport = trace.getSpanContext(ambient);
      if (transport !== undefined && trace.isSpanContextValid(transport)) links = [{ context: transport }];
    }
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
    return new RequestSpan(this, span, trace.setSpan(parent, span), ctx, measured);
  }

  /** Adds the current trace context to the `_meta` of a request to the client. */
  outgoing(_method: string, params: JsonObject | undefined): JsonObject | undefined {
    const carrier: Record<string, unknown> = {};
    propagation.inject(context.active(), carrier, metaSetter);
    if (Object.keys(carrier).length === 0) return params;
    const meta = isObject(params?._meta) ? params._meta : undefined;
    return { ...params, _meta: { ...meta, ...(carrier as JsonObject) } };
  }

  /** Records `mcp.server.session.duration` for a session that completed `initialize`. */
  sessionClosed(session: SessionContract): void {
    const record = this.sessions.get(session);
    if (record === undefined) return;
    this.sessions.delete(session);
    this.histograms.session.record((performance.now() - record.start) / 1000, record.attributes);
  }

  /** @internal A request ended. */
  ended(request: RequestSpan, attributes: Attributes, seconds: number): void {
    this.histograms.operation.record(seconds, attributes);
    const ctx = request.ctx;
    if (ctx.method === 'initialize' && attributes[McpAttr.errorType] === undefined && ctx.session.features !== undefined) {
      const session: Attributes = {
        [McpAttr.protocolVersion]: ctx.session.features.revision,
        [McpAttr.networkTransport]: attributes[McpAttr.networkTransport],
      };
      if (attributes[McpAttr.networkProtocolName] !== undefined) session[McpAttr.networkProtocolName] = attributes[McpAttr.networkProtocolName];
      this.sessions.set(ctx.session, { start: request.start, attributes: session });
    }
  }
}

/** The trace context a carrier holds, or undefined when it holds none. */
function extracted(carrier: unknown): Context | undefined {
  if (!isObject(carrier as JsonObject | RequestHeaders)) return undefined;
  const found = propagation.extract(ROOT_CONTEXT, carrier as Record<string, unknown>, carrierGetter);
  const spanContext = trace.getSpanContext(found);
  return spanContext !== undefined && trace.isSpanContextValid(spanContext) ? found : undefined;
}

/** The attributes both the span and the operation histogram carry (not the high-cardinality ones). */
const METRIC_ATTRIBUTES = [
  McpAttr.methodName,
  McpAttr.toolName,
  McpAttr.promptName,
  McpAttr.operationName,
  McpAttr.protocolVersion,
  McpAttr.networkTransport,
  McpAttr.networkProtocolName,
  McpAttr.errorType,
  McpAttr.responseStatusCode,
] as const;

/** One request's span. */
class RequestSpan implements RequestObservation {
  readonly start = performance.now();
  private done = false;

  constructor(
    private readonly telemetry: McpTelemetry,
    private readonly span: Span,
    private readonly context: Context,
    readonly ctx: RequestContext,
    /** The operation histogram's attributes known at the start (METRIC_ATTRIBUTES order). */
    private readonly measured: Attributes,
  ) {}

  run(handler: MethodHandler, params: JsonObject, ctx: RequestContext): unknown {
    return context.with(this.context, handler, undefined, params, ctx);
  }

  failed(error: unknown): void {
    if (!this.done) this.span.recordException(error instanceof Error ? error : String(error));
  }

  end(result: JsonObject | undefined, error: JsonRpcErrorObject | undefined): void {
    if (this.done) return;
    this.done = true;
    const seconds = (performance.now() - this.start) / 1000;
    const span = this.span;
    let measured = this.measured;
    // initialize negotiates the version: known only now.
    const version = measured[McpAttr.protocolVersion] === undefined ? this.ctx.session.features?.revision : undefined;
    let errorType: string | undefined;
    let statusCode: string | undefined;
    if (error !== undefined) {
      errorType = statusCode = String(error.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: typeof error.message === 'string' ? error.message : undefined });
    } else if (result === undefined) {
      errorType = CANCELLED;
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'Request cancelled' });
    } else if (this.ctx.method === 'tools/call' && result.isError === true) {
      errorType = TOOL_ERROR;
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    // The common case (a success whose version was known at the start) adds nothing: the span
    // ends as it is and the histogram records the attributes made at the start.
    if (version !== undefined || errorType !== undefined) {
      if (version !== undefined) span.setAttribute(McpAttr.protocolVersion, version);
      if (errorType !== undefined) span.setAttribute(McpAttr.errorType, errorType);
      if (statusCode !== undefined) span.setAttribute(McpAttr.responseStatusCode, statusCode);
      const all: Attributes = {
        ...measured,
        [McpAttr.protocolVersion]: version ?? measured[McpAttr.protocolVersion],
        [McpAttr.errorType]: errorType,
        [McpAttr.responseStatusCode]: statusCode,
      };
      measured = {};
      for (const key of METRIC_ATTRIBUTES) if (all[key] !== undefined) measured[key] = all[key];
    }
    span.end();
    this.telemetry.ended(this, measured, seconds);
  }
}

/**
 * Turns OpenTelemetry on for an engine (`createServer({ telemetry: true })` does it for you):
 * one SERVER span per request after the MCP semantic conventions, active while its handler runs,
 * continuing the trace context of `params._meta` (or of the HTTP request's headers), the
 * `mcp.server.operation.duration` and `mcp.server.session.duration` histograms, and trace context
 * on the requests the server sends to the client. The application registers the SDK, its
 * exporters and a propagator; with none, the API's no-op is used.
 * @publicApi
 */
export function instrumentServer(server: { useTelemetry(telemetry: RequestTelemetry): void }, options: McpTelemetryOptions = {}): McpTelemetry {
  const telemetry = new McpTelemetry(options);
  server.useTelemetry(telemetry);
  return telemetry;
}
