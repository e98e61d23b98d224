/**
 * @typemcp/otel over pipes: a stdio child process instrumented directly on a ProtocolServer and
 * driven by the official SDK 1.x client (its spans come back on the child's stderr), and the
 * in-memory testing kit for what needs the spans in this process: `createServer({ telemetry:
 * true })` with the global providers, a cancelled request, the seam's own rules, the error when
 * the package is missing, and the bare request path when telemetry is off.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { createServer } from '@typemcp/core';
import { instrumentServer, McpTelemetry } from '@typemcp/otel';
import { ProtocolServer } from '@typemcp/protocol';
import { createTestClient } from '@typemcp/testing';
import { CLIENT_SPAN_ID, CLIENT_TRACE_ID, OtelSdk, TRACEPARENT, TracedService } from './support/otel-fixture';

const FIXTURE = path.join(__dirname, 'fixtures', 'stdio-server.cjs');

interface SpanLine {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: { code: number };
}

describe('stdio child process, official SDK 1.x client', () => {
  it('spans with network.transport pipe, the _meta parent, and the tool span as a child', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
    const lines: SpanLine[] = [];
    let buffered = '';
    transport.stderr!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith('SPAN ')) lines.push(JSON.parse(line.slice(5)) as SpanLine);
      }
    });
    const client = new Client({ name: 'otel-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 }, _meta: { traceparent: TRACEPARENT } });
      expect(result.content).toEqual([{ type: 'text', text: '42' }]);
      for (let i = 0; i < 100 && lines.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await client.close();
    }
    const init = lines.find((l) => l.name === 'initialize')!;
    expect(init.attributes).toEqual({
      'mcp.method.name': 'initialize',
      'jsonrpc.request.id': '0',
      'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      'network.transport': 'pipe',
    });
    const call = lines.find((l) => l.name === 'tools/call add')!;
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.attributes).toMatchObject({ 'gen_ai.tool.name': 'add', 'network.transport': 'pipe' });
    expect(call.attributes).not.toHaveProperty('mcp.session.id');
    expect(call.attributes).not.toHaveProperty('network.protocol.name');
    expect(call.traceId).toBe(CLIENT_TRACE_ID);
    expect(call.parentSpanId).toBe(CLIENT_SPAN_ID);
    const compute = lines.find((l) => l.name === 'compute')!;
    expect(compute.traceId).toBe(CLIENT_TRACE_ID);
    expect(compute.parentSpanId).toBe(call.spanId);
  });
});

describe('in process', () => {
  let sdk: OtelSdk;
  beforeAll(() => {
    sdk = new OtelSdk();
    metrics.setGlobalMeterProvider(sdk.meterProvider);
  });
  afterAll(async () => {
    await sdk.shutdown();
    metrics.disable();
  });
  beforeEach(() => sdk.reset());

  it('createServer({ telemetry: true }) uses the globally registered providers', async () => {
    const client = await createTestClient({ services: [TracedService], telemetry: true, onElicit: () => ({ action: 'accept', content: { answer: 'ok' } }) });
    try {
      expect(await client.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: '3' }] });
      const span = sdk.one('tools/call add');
      expect(span.attributes).toMatchObject({ 'network.transport': 'pipe', 'gen_ai.tool.name': 'add' });
      const points = await sdk.histogram('mcp.server.operation.duration');
      expect(points.some((p) => p.attributes['gen_ai.tool.name'] === 'add' && p.attributes['network.transport'] === 'pipe')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 through the kit: the version of the request, an elicitation becomes input_required (no error)', async () => {
    const client = await createTestClient({
      services: [TracedService],
      telemetry: true,
      revision: '2026-07-28',
      onElicit: () => ({ action: 'accept', content: { answer: 'fine' } }),
    });
    try {
      expect(await client.callTool('ask', {}, { meta: { traceparent: TRACEPARENT } })).toEqual({ content: [{ type: 'text', text: 'answer=fine' }] });
      // Two rounds: input_required, then the retry with the answer. Both continue the client's trace.
      const spans = sdk.finished('tools/call ask');
      expect(spans).toHaveLength(2);
      for (const span of spans) {
        expect(span.status.code).toBe(SpanStatusCode.UNSET);
        expect(span.attributes['mcp.protocol.version']).toBe('2026-07-28');
        expect(span.spanContext().traceId).toBe(CLIENT_TRACE_ID);
      }
    } finally {
      await client.close();
    }
  });

  it('a cancelled request ends its span with error.type cancelled', async () => {
    const server = new ProtocolServer({ serverInfo: { name: 'cancel', version: '1' } });
    instrumentServer(server, { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.registry.addTool({ name: 'hang', description: 'waits for its cancellation', inputSchema: { type: 'object' } }, (_args, ctx) => {
      started();
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ content: [] })));
    });
    // A bare engine: spoken to through a Transport of the test's own (the kit drives TypeMcpServers).
    const sent: string[] = [];
    const session = server.connect({ send: (m) => sent.push(m) });
    session.receiveValue({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    session.receiveValue({ jsonrpc: '2.0', method: 'notifications/initialized' });
    session.receiveValue({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await running;
    session.receiveValue({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'changed my mind' } });
    await new Promise((r) => setImmediate(r));
    const span = sdk.one('tools/call hang');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Request cancelled' });
    expect(span.attributes['error.type']).toBe('cancelled');
    // Never answered, and no second end when the handler resolves after its cancellation.
    expect(sent.map((m) => (JSON.parse(m) as { id?: number }).id)).toEqual([1]);
    expect(sdk.finished('tools/call hang')).toHaveLength(1);
    await session.close(0);
  });

  it('one telemetry per server; a malformed one is refused', () => {
    const server = new ProtocolServer({ serverInfo: { name: 'twice', version: '1' } });
    server.useTelemetry(new McpTelemetry());
    expect(() => instrumentServer(server)).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option: 'telemetry' }));
    expect(() => new ProtocolServer({ serverInfo: { name: 'bad', version: '1' } }).useTelemetry({} as never)).toThrow(/request\(\) method/);
    expect(() => createServer({ name: 'bad', version: '1', services: [], telemetry: { tracerProvider: {} as never } })).toThrow(
      /telemetry\.tracerProvider.*TracerProvider/,
    );
  });

  it('without telemetry a handler runs bare: no span around it, no observation on its context', async () => {
    let active: unknown = 'not called';
    let observed: unknown = 'not called';
    const server = createServer({ name: 'bare', version: '1', services: [] });
    server.engine.registry.addTool({ name: 'peek', description: 'looks at its context', inputSchema: { type: 'object' } }, (_args, ctx) => {
      active = trace.getActiveSpan();
      observed = (ctx as unknown as { observation?: unknown }).observation;
      return { content: [] };
    });
    const client = await createTestClient({ server });
    try {
      await client.callTool('peek');
    } finally {
      await client.close();
    }
    expect(active).toBeUndefined();
    expect(observed).toBeUndefined();
    expect(sdk.finished()).toEqual([]);
  });

  it('says what to install when @typemcp/otel is missing', () => {
    jest.resetModules();
    jest.doMock('@typemcp/otel', () => {
      throw Object.assign(new Error("Cannot find module '@typemcp/otel' from 'create-server.ts'"), { code: 'MODULE_NOT_FOUND' });
    });
    try {
      const core = jest.requireActual<typeof import('@typemcp/core')>('@typemcp/core');
      expect(() => core.createServer({ name: 'h', version: '1', services: [], telemetry: true })).toThrow(
        expect.objectContaining({
          code: 'TYPEMCP_ERR_TELEMETRY_NOT_INSTALLED',
          message: expect.stringContaining('npm install @typemcp/otel @opentelemetry/api'),
        }),
      );
      expect(() => core.createServer({ name: 'h', version: '1', services: [] })).not.toThrow();
    } finally {
      jest.dontMock('@typemcp/otel');
    }
  });
});
