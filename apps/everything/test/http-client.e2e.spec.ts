/**
 * End to end over real HTTP sockets: the everything server, served in process through
 * `TypeMcpServer.listen({ transport: 'http' })` (core loads @typemcp/http lazily), driven by the
 * official SDK client: Streamable HTTP at 2025-03-26, 2025-06-18 and 2025-11-25, the HTTP+SSE
 * transport at 2024-11-05. Every message the server sent is validated against the CLOSED schema
 * of the negotiated revision. (The built server is exercised by conformance.e2e.spec.ts.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { HttpListenerHandle } from '@typemcp/core';
import { describeFailures, REVISIONS, validateServerTraffic, type JsonObject, type Revision } from '../../../test/support/spec-schemas';
import { connectHttp, type HttpSession } from '../../../test/support/http-session';
import { createEverythingServer } from '../src/everything.server';

const TIMEOUT = { timeout: 5000 };
type ToolResult = { content: (JsonObject & { type: string; text?: string })[]; isError?: boolean };

let listener: HttpListenerHandle;
let urls: { mcpUrl: string; sseUrl: string };

beforeAll(async () => {
  listener = await createEverythingServer().listen({ transport: 'http', port: 0, retryMs: 50, keepAliveMs: 0 });
  urls = { mcpUrl: listener.url, sseUrl: listener.url.replace(/\/mcp$/, '/sse') };
});
afterAll(() => listener?.close(0));

describe.each(REVISIONS)('SDK client <-> everything server over HTTP at %s', (revision: Revision) => {
  const streamable = revision !== '2024-11-05';
  let s: HttpSession;
  const call = async (name: string, args: JsonObject = {}, options = {}) =>
    (await s.client.callTool({ name, arguments: args }, undefined, { ...TIMEOUT, ...options })) as unknown as ToolResult;
  const textOf = (r: ToolResult) => r.content[0].text;

  beforeAll(async () => {
    const client = new Client({ name: 'typemcp-http-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'four' } }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { response: 'yes' } }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    s = await connectHttp(urls, revision, client);
  });
  afterAll(() => s?.close());

  it('negotiates the revision over the right transport', async () => {
    expect(s.client.getServerVersion()).toMatchObject({ name: 'typemcp-everything' });
    const init = s.recorder.responseTo('initialize');
    expect((init.result as JsonObject).protocolVersion).toBe(revision);
    if (streamable) {
      expect((s.transport as StreamableHTTPClientTransport).sessionId).toMatch(/^[0-9a-f-]{36}$/);
      // After initialized (202) the client opens the standalone GET stream.
      for (let i = 0; i < 100 && !s.recorder.exchanges.some((e) => e.method === 'GET'); i++) await new Promise((r) => setTimeout(r, 10));
      expect(s.recorder.exchanges.map((e) => `${e.method} ${e.status}`).slice(0, 3)).toEqual(['POST 200', 'POST 202', 'GET 200']);
    } else {
      expect(s.recorder.exchanges[0]).toMatchObject({ method: 'GET', status: 200, contentType: 'text/event-stream' });
    }
  });

  it('lists and calls tools, with progress and logs before the result', async () => {
    const { tools } = await s.client.listTools(undefined, TIMEOUT);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'test_simple_text', 'test_sampling']));
    expect(textOf(await call('add', { a: 40, b: 2 }))).toBe('42');

    const progress: number[] = [];
    await call('test_tool_with_progress', {}, { onprogress: (p: { progress: number }) => progress.push(p.progress) });
    const request = s.recorder.lastRequest('tools/call', (p) => p.name === 'test_tool_with_progress');
    const response = s.recorder.responsesTo(request.message.id)[0];
    const sent = s.recorder.entries((e) => e.message.method === 'notifications/progress', request.seq);
    expect(sent.map((e) => (e.message.params as JsonObject).progress)).toEqual([0, 50, 100]);
    for (const e of sent) expect(e.seq).toBeLessThan(response.seq);
    // All of them: the result is written apart from the last one (typescript-sdk#2580, ProgressPacer).
    expect(progress).toEqual([0, 50, 100]);
    if (streamable) {
      // Progress and the result travelled on the POST's own stream.
      for (const e of [...sent, response]) expect(s.recorder.exchangeOf(e.seq).method).toBe('POST');
    }

    const logs: string[] = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await s.client.setLoggingLevel('info', TIMEOUT);
    const mark = s.recorder.mark();
    expect(textOf(await call('test_tool_with_logging'))).toBe('Tool with logging executed successfully');
    const result = s.recorder.responseTo('tools/call', (p) => p.name === 'test_tool_with_logging');
    const wrote = s.recorder.entries((e) => e.message.method === 'notifications/message', mark);
    expect(wrote.map((e) => (e.message.params as JsonObject).data)).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    for (const e of wrote) expect(e.seq).toBeLessThan(s.recorder.wire.findIndex((w) => w.message === result));
    // The SDK runs notification handlers a microtask after it reads them.
    await new Promise((r) => setTimeout(r, 10));
    expect(logs).toEqual(wrote.map((e) => (e.message.params as JsonObject).data));
  });

  it('asks the client: sampling, roots, and elicitation where the revision has it', async () => {
    expect(textOf(await call('test_sampling', { prompt: 'What is 2+2?' }))).toBe('LLM response: four');
    expect(JSON.parse(textOf(await call('test_list_roots'))!)).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
    const elicited = await call('test_elicitation', { message: 'ok?' });
    if (revision >= '2025-06-18') expect(textOf(elicited)).toBe('User response: action=accept, content={"response":"yes"}');
    else expect(elicited.isError).toBe(true);
    if (streamable) {
      const ask = s.recorder.entries((e) => e.message.method === 'sampling/createMessage')[0];
      expect(s.recorder.exchangeOf(ask.seq).method).toBe('POST');
    }
  });

  it('cancels a slow call: the server stops, never answers it, and keeps serving', async () => {
    const controller = new AbortController();
    const pending = s.client.callTool({ name: 'test_slow_operation', arguments: { durationMs: 20_000 } }, undefined, {
      signal: controller.signal,
      timeout: 25_000,
      onprogress: () => {},
    });
    await s.recorder.waitFor((m) => m.method === 'notifications/progress', 'progress of the slow call', s.recorder.mark());
    const request = s.recorder.lastRequest('tools/call', (p) => p.name === 'test_slow_operation');
    controller.abort('e2e cancel');
    await expect(pending).rejects.toBeDefined();
    expect(await s.client.ping(TIMEOUT)).toEqual({});
    await new Promise((r) => setTimeout(r, 150));
    expect(s.recorder.responsesTo(request.message.id)).toEqual([]);
  });

  it('announces list changes on the standalone stream (the SSE stream for 2024-11-05)', async () => {
    let changed!: () => void;
    const seen = new Promise<void>((resolve) => (changed = resolve));
    s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    expect(textOf(await call('test_toggle_dynamic_tool'))).toBe('added test_dynamic_tool');
    await seen;
    const notice = s.recorder.entries((e) => e.message.method === 'notifications/tools/list_changed').at(-1)!;
    expect(s.recorder.exchangeOf(notice.seq).method).toBe('GET');
    expect(textOf(await call('test_dynamic_tool'))).toBe('dynamic tool called');
    expect(textOf(await call('test_toggle_dynamic_tool'))).toBe('removed test_dynamic_tool');
  });

  if (revision === '2025-11-25') {
    it('resumes a stream the server closed mid-call (SEP-1699): GET with Last-Event-ID brings the result', async () => {
      const before = s.recorder.exchanges.length;
      expect(textOf(await call('test_reconnection'))).toBe('Reconnection test completed successfully.');
      const resume = s.recorder.exchanges.slice(before).find((e) => e.method === 'GET' && e.lastEventId);
      expect(resume).toMatchObject({ status: 200, lastEventId: expect.stringMatching(/:0$/) });
      const result = s.recorder.responseTo('tools/call', (p) => p.name === 'test_reconnection');
      expect(s.recorder.exchangeOf(s.recorder.wire.findIndex((e) => e.message === result)).lastEventId).toBe(resume!.lastEventId);
    });
  }

  it('sent only schema-valid messages (closed schema of the revision)', () => {
    const report = validateServerTraffic(revision, s.recorder.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    expect(report.checked).toBeGreaterThan(20);
    expect(s.clientErrors.filter((e) => !/progress notification for an unknown token|AbortError|aborted/i.test(e.message))).toEqual([]);
  });

  it('ends the session (DELETE for Streamable HTTP, closing the stream for HTTP+SSE): its id is then unknown', async () => {
    const sessionId = streamable
      ? (s.transport as StreamableHTTPClientTransport).sessionId!
      : new URL((s.transport as unknown as { _endpoint: URL })._endpoint).searchParams.get('sessionId')!;
    if (streamable) await (s.transport as StreamableHTTPClientTransport).terminateSession();
    await s.close();
    await new Promise((r) => setTimeout(r, 50));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const res = streamable
      ? await fetch(urls.mcpUrl, { method: 'POST', headers: { ...headers, 'mcp-session-id': sessionId }, body })
      : await fetch(`${urls.sseUrl.replace(/\/sse$/, '/messages')}?sessionId=${sessionId}`, { method: 'POST', headers, body });
    expect(res.status).toBe(404);
  });
});
