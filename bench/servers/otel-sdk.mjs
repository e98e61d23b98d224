// The OpenTelemetry SDK as an application registers it, with exporters that discard what they get:
// the cost of telemetry turned on (spans made, batched and exported; histograms aggregated and
// collected every 10 s) without a collector's I/O. Used by the `typemcp-otel` contestants.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { context, metrics, propagation, trace } = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = require('@opentelemetry/core');
const { BasicTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { MeterProvider, PeriodicExportingMetricReader } = require('@opentelemetry/sdk-metrics');

const discard = { export: (_items, done) => done({ code: 0 }), shutdown: () => Promise.resolve(), forceFlush: () => Promise.resolve() };

/** Registers the SDK globally (what `createServer({ telemetry: true })` then uses). */
export function registerOtelSdk() {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: discard, exportIntervalMillis: 10_000 })] }));
}
