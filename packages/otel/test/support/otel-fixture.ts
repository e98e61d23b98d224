/**
 * The real OpenTelemetry SDK for the tests: an in-memory span exporter behind a
 * BasicTracerProvider, the metrics SDK with an in-memory exporter read on demand, the
 * AsyncLocalStorage context manager and the W3C trace-context and baggage propagators
 * registered globally (what an application's SDK set-up does), and a TypeMCP server with a
 * few features to trace.
 */
import 'reflect-metadata';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Context, McpService, Prompt, Resource, Tool, ToolError } from '@typemcp/core';
import { IsNumber, IsString } from 'class-validator';

export class AddInput {
  @IsNumber()
  a!: number;

  @IsNumber()
  b!: number;
}

export class GreetArgs {
  @IsString()
  who!: string;
}

export class Confirm {
  @IsString()
  answer!: string;
}

/** A span an application makes inside a tool (a database call, say). */
export const APP_TRACER = 'app-under-test';

@McpService()
export class TracedService {
  @Tool({ name: 'add', description: 'Adds two numbers' })
  add(input: AddInput) {
    return String(input.a + input.b);
  }

  @Tool({ name: 'explode', description: 'Throws an unexpected error' })
  explode(): string {
    throw new Error('database is down');
  }

  @Tool({ name: 'refuse', description: 'Fails the way a tool reports a failure to the model' })
  refuse(): string {
    throw new ToolError('not today');
  }

  @Tool({ name: 'nested', description: 'Makes a span of its own, after an await' })
  async nested() {
    await new Promise((resolve) => setImmediate(resolve));
    return trace.getTracer(APP_TRACER).startActiveSpan('db.query', (span) => {
      const baggage = propagation.getActiveBaggage()?.getEntry('tenant')?.value ?? 'none';
      span.end();
      return `tenant=${baggage}`;
    });
  }

  @Tool({ name: 'ask', description: 'Asks the user through elicitation' })
  async ask(ctx: Context) {
    const answer = await ctx.elicit('Continue?', Confirm);
    return answer.action === 'accept' ? `answer=${answer.content.answer}` : answer.action;
  }

  @Resource('otel://readme', { name: 'readme', description: 'A fixed text', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }

  @Prompt({ name: 'greet', description: 'Greets someone' })
  greet(args: GreetArgs) {
    return `Say hello to ${args.who}.`;
  }
}

/** The SDK, set up once per test file. */
export class OtelSdk {
  readonly spans = new InMemorySpanExporter();
  readonly tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(this.spans)] });
  private readonly metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  private readonly reader = new PeriodicExportingMetricReader({ exporter: this.metricExporter, exportIntervalMillis: 3_600_000 });
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });
  private readonly contextManager = new AsyncLocalStorageContextManager();

  constructor() {
    context.setGlobalContextManager(this.contextManager.enable());
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    trace.setGlobalTracerProvider(this.tracerProvider);
  }

  /** Finished spans named `name`. */
  finished(name?: string): ReadableSpan[] {
    return this.spans.getFinishedSpans().filter((s) => name === undefined || s.name === name);
  }

  /** The one finished span named `name`. */
  one(name: string): ReadableSpan {
    const found = this.finished(name);
    expect(found.map((s) => s.name)).toEqual([name]);
    return found[0];
  }

  /** The data points of a histogram, after a collection. */
  async histogram(name: string): Promise<DataPoint<Histogram>[]> {
    await this.reader.forceFlush();
    const batches = this.metricExporter.getMetrics();
    const latest = batches[batches.length - 1];
    const metric = latest?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
    return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
  }

  reset(): void {
    this.spans.reset();
  }

  async shutdown(): Promise<void> {
    await this.meterProvider.shutdown();
    await this.tracerProvider.shutdown();
    this.contextManager.disable();
    trace.disable();
    propagation.disable();
    context.disable();
  }
}

/** A W3C traceparent of a made-up client span. */
export const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const CLIENT_SPAN_ID = '00f067aa0ba902b7';
export const TRACEPARENT = `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`;
