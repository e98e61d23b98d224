/**
 * @typemcp/otel with the real OpenTelemetry SDK, driven by the official SDK clients over real
 * HTTP sockets: the 1.x client in a legacy session (2025-11-25, Streamable HTTP) and the 2.x
 * client in the stateless 2026-07-28 era. It checks the SERVER span of each kind of request
 * against the MCP semantic conventions, failures (a thrown tool, an `isError` tool, a JSON-RPC
 * error), trace context from `_meta` and from the HTTP headers, the span active while a tool
 * runs (its own spans are children, baggage reaches it), trace context out on an elicitation,
 * and the two histograms with their attributes. Every message the server sent in the legacy
 * session validates against the closed 2025-11-25 schema.
 */
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createServer, type HttpListenerHandle } from '@typemcp/core';
import type {} from '@typemcp/http';
import { HttpWireRecorder } from '../../../test/support/http-session';
import { describeFailures, validateServerTraffic } from '../../../test/support/spec-schemas';
import { APP_TRACER, CLIENT_SPAN_ID, CLIENT_TRACE_ID, OtelSdk, TRACEPARENT, TracedService } from './support/otel-fixture';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const TIMEOUT = { timeout: 5000 };

let sdk: OtelSdk;
let listener: HttpListenerHandle;
let errors: string[];

beforeAll(async () => {
  sdk = new OtelSdk();
  errors = [];
  const server = createServer({
    name: 'otel-http',
    version: '1.0.0',
    services: [TracedService],
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    onError: (error, where) => errors.push(`${where}: ${(error as Error).message}`),
  });
  listener = await server.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
});
afterAll(async () => {
  await listener?.close(0);
  await sdk?.shutdown();
});

const attrs = (span: ReadableSpan) => span.attributes;

describe('a legacy session (SDK 1.x client, Streamable HTTP, 2025-11-25)', () => {
  let client: Client;
  let recorder: HttpWireRecorder;
  let sessionId: string;
  let transport: StreamableHTTPClientTransport;
  const elicited: Record<string, unknown>[] = [];

  beforeAll(async () => {
    sdk.reset();
    recorder = new HttpWireRecorder(LEGACY);
    client = new Client({ name: 'otel-legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params as Record<string, unknown>);
      return { action: 'accept', content: { answer: 'yes' } };
    });
    transport = new StreamableHTTPClientTransport(new URL(listener.url), { fetch: recorder.fetch });
    await client.connect(transport);
    sessionId = transport.sessionId!;
    expect(sessionId).toEqual(expect.any(String));
  });
  afterAll(() => client?.close());

  it('initialize: a SERVER span named after the method, with the negotiated version, the session id and the transport', () => {
    const span = sdk.one('initialize');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(attrs(span)).toEqual({
      'mcp.method.name': 'initialize',
      'jsonrpc.request.id': '0',
      'mcp.session.id': sessionId,
      'mcp.protocol.version': LEGACY,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(span.instrumentationScope.name).toBe('@typemcp/otel');
  });

  it('tools/call and tools/list: target in the name, gen_ai attributes on the tool call', async () => {
    sdk.reset();
    await client.listTools(undefined, TIMEOUT);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, undefined, TIMEOUT)).toEqual({ content: [{ type: 'text', text: '5' }] });
    const list = sdk.one('tools/list');
    expect(attrs(list)['mcp.method.name']).toBe('tools/list');
    expect(attrs(list)).not.toHaveProperty('gen_ai.operation.name');
    const call = sdk.one('tools/call add');
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(attrs(call)).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.session.id': sessionId,
      'mcp.protocol.version': LEGACY,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    // Each request its own trace: nothing upstream to continue.
    expect(call.parentSpanContext).toBeUndefined();
    expect(call.spanContext().traceId).not.toBe(list.spanContext().traceId);
  });

  it('resources/read carries mcp.resource.uri (not in the name); prompts/get its prompt', async () => {
    sdk.reset();
    await client.readResource({ uri: 'otel://readme' }, TIMEOUT);
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } }, TIMEOUT);
    expect(attrs(sdk.one('resources/read'))).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'otel://readme' });
    const prompt = sdk.one('prompts/get greet');
    expect(attrs(prompt)).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' });
    expect(attrs(prompt)).not.toHaveProperty('gen_ai.operation.name');
  });

  it('a thrown tool: isError answer, error.type tool_error, status ERROR, the exception recorded', async () => {
    sdk.reset();
    const result = await client.callTool({ name: 'explode', arguments: {} }, undefined, TIMEOUT);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Tool "explode" failed: internal error' }], isError: true });
    const span = sdk.one('tools/call explode');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(attrs(span)['error.type']).toBe('tool_error');
    expect(attrs(span)).not.toHaveProperty('rpc.response.status_code');
    expect(span.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([['exception', 'database is down']]);
    expect(errors.some((e) => e.includes('database is down'))).toBe(true);
  });

  it('an isError tool (ToolError): error.type tool_error, no exception event', async () => {
    sdk.reset();
    const result = await client.callTool({ name: 'refuse', arguments: {} }, undefined, TIMEOUT);
    expect(result).toEqual({ content: [{ type: 'text', text: 'not today' }], isError: true });
    const span = sdk.one('tools/call refuse');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(attrs(span)['error.type']).toBe('tool_error');
    expect(span.events).toEqual([]);
  });

  it('a JSON-RPC error: error.type and rpc.response.status_code are its code, the status message its message', async () => {
    sdk.reset();
    await expect(client.callTool({ name: 'nope', arguments: {} }, undefined, TIMEOUT)).rejects.toThrow(/Unknown tool: nope/);
    const span = sdk.one('tools/call nope');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unknown tool: nope' });
    expect(attrs(span)).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602', 'gen_ai.tool.name': 'nope' });
  });

  it('continues the traceparent of params._meta: same trace id, the client span as parent; baggage reaches the tool', async () => {
    sdk.reset();
    const result = await client.callTool({ name: 'nested', arguments: {}, _meta: { traceparent: TRACEPARENT, baggage: 'tenant=acme' } }, undefined, TIMEOUT);
    expect(result.content).toEqual([{ type: 'text', text: 'tenant=acme' }]);
    const server = sdk.one('tools/call nested');
    expect(server.spanContext().traceId).toBe(CLIENT_TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(server.parentSpanContext?.isRemote).toBe(true);
    // The span the tool made after an await is a child of the server span.
    const child = sdk.one('db.query');
    expect(child.instrumentationScope.name).toBe(APP_TRACER);
    expect(child.spanContext().traceId).toBe(CLIENT_TRACE_ID);
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  });

  it('an elicitation from inside a tool carries the traceparent of the current span out in _meta', async () => {
    sdk.reset();
    elicited.length = 0;
    const result = await client.callTool({ name: 'ask', arguments: {}, _meta: { traceparent: TRACEPARENT } }, undefined, TIMEOUT);
    expect(result.content).toEqual([{ type: 'text', text: 'answer=yes' }]);
    const server = sdk.one('tools/call ask');
    expect(elicited).toHaveLength(1);
    const meta = elicited[0]._meta as Record<string, unknown>;
    expect(meta.traceparent).toBe(`00-${CLIENT_TRACE_ID}-${server.spanContext().spanId}-01`);
    expect(elicited[0]).toMatchObject({ message: 'Continue?', mode: 'form' });
  });

  it('every message the server sent validates against the closed 2025-11-25 schema', () => {
    const report = validateServerTraffic(LEGACY, recorder.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    expect(report.checked).toBeGreaterThan(8);
  });

  it('mcp.server.operation.duration: seconds, the advised buckets, the attributes of the conventions (no ids or URIs)', async () => {
    const points = await sdk.histogram('mcp.server.operation.duration');
    const add = points.find((p) => p.attributes['gen_ai.tool.name'] === 'add')!;
    expect(add.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': LEGACY,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(add.value.count).toBeGreaterThanOrEqual(1);
    expect(add.value.sum).toBeGreaterThan(0);
    expect(add.value.sum).toBeLessThan(5);
    expect(add.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const failed = points.find((p) => p.attributes['gen_ai.tool.name'] === 'nope')!;
    expect(failed.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(points.find((p) => p.attributes['gen_ai.tool.name'] === 'refuse')?.attributes['error.type']).toBe('tool_error');
    const read = points.find((p) => p.attributes['mcp.method.name'] === 'resources/read')!;
    expect(read.attributes).not.toHaveProperty('mcp.resource.uri');
    for (const p of points) {
      expect(p.attributes).not.toHaveProperty('mcp.session.id');
      expect(p.attributes).not.toHaveProperty('jsonrpc.request.id');
    }
  });

  it('mcp.server.session.duration: recorded when the session ends', async () => {
    expect(await sdk.histogram('mcp.server.session.duration')).toEqual([]);
    // The DELETE ends the session on the server.
    await transport.terminateSession();
    await client.close();
    for (let i = 0; i < 50 && (await sdk.histogram('mcp.server.session.duration')).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const [session] = await sdk.histogram('mcp.server.session.duration');
    expect(session.attributes).toEqual({ 'mcp.protocol.version': LEGACY, 'network.transport': 'tcp', 'network.protocol.name': 'http' });
    expect(session.value.count).toBe(1);
    expect(session.value.sum).toBeGreaterThan(0);
    expect(session.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
  });
});

describe('the HTTP headers as a fallback', () => {
  it('a traceparent header is continued when _meta has none; _meta wins when both are there', async () => {
    const headerTrace = 'a'.repeat(32);
    const headerSpan = 'b'.repeat(16);
    const client = new Client({ name: 'otel-headers', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { traceparent: `00-${headerTrace}-${headerSpan}-01` } } }),
    );
    try {
      sdk.reset();
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }, undefined, TIMEOUT);
      const fromHeader = sdk.one('tools/call add');
      expect(fromHeader.spanContext().traceId).toBe(headerTrace);
      expect(fromHeader.parentSpanContext?.spanId).toBe(headerSpan);

      sdk.reset();
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 }, _meta: { traceparent: TRACEPARENT } }, undefined, TIMEOUT);
      const fromMeta = sdk.one('tools/call add');
      expect(fromMeta.spanContext().traceId).toBe(CLIENT_TRACE_ID);
      expect(fromMeta.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    } finally {
      await client.close();
    }
  });
});

describe('the stateless 2026-07-28 era (SDK 2.x client)', () => {
  let client: Sdk2Client;

  beforeAll(async () => {
    client = new Sdk2Client({ name: 'otel-modern', version: '2.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new Sdk2HttpTransport(new URL(listener.url)), TIMEOUT);
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  });
  afterAll(() => client?.close());

  it('spans per request with the request version, no session id; _meta traceparent continued', async () => {
    sdk.reset();
    const result = await client.callTool({ name: 'add', arguments: { a: 4, b: 5 }, _meta: { traceparent: TRACEPARENT } }, TIMEOUT);
    expect(result.content).toEqual([{ type: 'text', text: '9' }]);
    const span = sdk.one('tools/call add');
    expect(attrs(span)).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': expect.any(String),
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': MODERN,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(span.spanContext().traceId).toBe(CLIENT_TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);

    sdk.reset();
    await client.getPrompt({ name: 'greet', arguments: { who: 'Grace' } }, TIMEOUT);
    await client.readResource({ uri: 'otel://readme' }, TIMEOUT);
    expect(attrs(sdk.one('prompts/get greet'))).toMatchObject({ 'gen_ai.prompt.name': 'greet', 'mcp.protocol.version': MODERN });
    expect(attrs(sdk.one('resources/read'))).toMatchObject({ 'mcp.resource.uri': 'otel://readme', 'mcp.protocol.version': MODERN });
    expect(sdk.finished().every((s) => !('mcp.session.id' in s.attributes))).toBe(true);
  });

  it('no session duration for stateless requests', async () => {
    const before = (await sdk.histogram('mcp.server.session.duration')).reduce((n, p) => n + p.value.count, 0);
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, TIMEOUT);
    await new Promise((r) => setTimeout(r, 50));
    const after = (await sdk.histogram('mcp.server.session.duration')).reduce((n, p) => n + p.value.count, 0);
    expect(after).toBe(before);
  });
});
