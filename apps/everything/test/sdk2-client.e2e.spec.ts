/**
 * End to end with the OFFICIAL SDK 2.x client (`@modelcontextprotocol/client` 2.4.0) against the
 * everything server, over stdio (the built server, spawned) and Streamable HTTP (served in
 * process on a free port, as in http-client.e2e.spec.ts), in both eras the client speaks:
 *
 * - modern (2026-07-28): `versionNegotiation` makes `connect()` probe with `server/discover`
 *   instead of `initialize`; every request then carries the `_meta` envelope (protocol version,
 *   client info, client capabilities). `input_required` results are fulfilled by the client
 *   itself through the handlers registered with `setRequestHandler('elicitation/create' |
 *   'sampling/createMessage' | 'roots/list')`, and the call retried with `inputResponses` and
 *   the echoed `requestState` (`ClientOptions.inputRequired`, on by default), so `callTool()`
 *   returns the final result. `client.listen()` opens `subscriptions/listen`.
 * - legacy (the default, no `versionNegotiation`): the 2025 `initialize` handshake at
 *   2025-11-25, with real server->client requests.
 *
 * Every message the server sent in each session is validated against the CLOSED schema of the
 * era's revision (test/support/spec-schemas.ts). The wire is recorded from the raw bytes: the
 * stdio child's stdout, and the HTTP bodies (SSE streams and JSON responses).
 *
 * Needs the everything app built first (`npx tsc -b apps/everything`; npm test does it).
 */
import * as path from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  type ClientOptions,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { HttpListenerHandle } from '@typemcp/core';
import { HttpWireRecorder } from '../../../test/support/http-session';
import {
  coreDefinitions,
  describeFailures,
  MODERN_REVISION,
  validateServerTraffic,
  type JsonObject,
  type SchemaRevision,
  type WireEntry,
} from '../../../test/support/spec-schemas';
import { assertServerBuilt, StdioRecorder, type ExitInfo, type ServerEntry } from '../../../test/support/stdio-session';
import { WireRecorder } from '../../../test/support/wire-recorder';
import { createEverythingServer } from '../src/everything.server';
import { ONLY_THE_BANNER } from './support/banner';

const EVERYTHING: ServerEntry = { main: path.resolve(__dirname, '../dist/main.js'), args: ['--transport', 'stdio'] };
const LEGACY_REVISION = '2025-11-25';
const KINDS = ['stdio', 'http'] as const;
type Kind = (typeof KINDS)[number];

/** Per-request timeout: a hang fails the test quickly instead of after the SDK's 60 s. */
const TIMEOUT = { timeout: 5000 };
const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;
const CLIENT_INFO = { name: 'typemcp-sdk2-e2e', version: '2.0.0' };
const ROOTS = [
  { uri: 'file:///work/project', name: 'project' },
  { uri: 'file:///work/shared', name: 'shared' },
];
const SAMPLED_TEXT = 'Paris, of course.';

type Block = JsonObject & { type: string; text?: string };
type ToolResult = { content: Block[]; isError?: boolean };
const textOf = (result: unknown) => {
  const { content } = result as ToolResult;
  expect(content).toHaveLength(1);
  expect(content[0].type).toBe('text');
  return content[0].text;
};
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const paramsOf = (e: WireEntry) => (e.message.params ?? {}) as JsonObject;

// ---------------------------------------------------------------------------------------------
// Recording transports
// ---------------------------------------------------------------------------------------------

/**
 * SDK 2.x StdioClientTransport behind a recording wrapper: outbound messages as sent, inbound
 * from the raw stdout lines of the child (before the SDK parses them). It exposes `stderr` and
 * `pid`, so the client recognizes a stdio transport; not being the SDK's own class, it is probed
 * in place (the SDK's own class is probed on a disposable sibling process, whose traffic could
 * not be recorded), so `server/discover` is on this wire too.
 */
class Sdk2StdioRecorder extends StdioRecorder<JSONRPCMessage> implements Transport {
  constructor(server: ServerEntry) {
    super(new StdioClientTransport({ command: process.execPath, args: [server.main, ...(server.args ?? [])], stderr: 'pipe' }));
  }

  get stderr() {
    return (this.inner as StdioClientTransport).stderr;
  }

  get pid() {
    return (this.inner as StdioClientTransport).pid;
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.forward(message);
  }
}

/**
 * The shared HTTP recorder (request bodies, SSE `message` events and successful plain JSON
 * answers as the server wrote them) plus the `application/json` bodies of refusals (HTTP 400 and
 * the like), which a 2026-07-28 server may answer with. `initialize` is pinned to 2025-11-25,
 * what the SDK 2.x client sends.
 */
const sdk2HttpRecorder = () => new HttpWireRecorder(LEGACY_REVISION, true);

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

interface Session {
  client: Client;
  recorder: WireRecorder;
  /** Errors the SDK client reported through onerror. */
  clientErrors: Error[];
  stdio?: Sdk2StdioRecorder;
  http?: HttpWireRecorder;
  /** Closes the client; for stdio resolves with the child's exit. */
  close(): Promise<ExitInfo | undefined>;
}

/** What the client's elicitation/sampling/roots handlers were asked, in order. */
interface Asked {
  method: string;
  params: JsonObject;
}

/** Registers the three handlers (the client must declare the capabilities first). */
function answerEverything(client: Client, asked: Asked[]): void {
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as unknown as JsonObject;
    asked.push({ method: request.method, params });
    const fields = Object.keys(((params.requestedSchema as JsonObject | undefined)?.properties ?? {}) as JsonObject);
    const values: Record<string, string | boolean> = { name: 'Alice', color: 'teal', response: 'yes', ok: true };
    const content = Object.fromEntries(fields.filter((f) => f in values).map((f) => [f, values[f]]));
    return { action: 'accept', content };
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push({ method: request.method, params: request.params as unknown as JsonObject });
    return { model: 'e2e-model', role: 'assistant', content: { type: 'text', text: SAMPLED_TEXT }, stopReason: 'endTurn' };
  });
  client.setRequestHandler('roots/list', async (request) => {
    asked.push({ method: request.method, params: (request.params ?? {}) as unknown as JsonObject });
    return { roots: ROOTS };
  });
}

let listener: HttpListenerHandle | undefined;

/** The in-process HTTP server, shared by every HTTP session of this file. */
async function httpUrl(): Promise<string> {
  listener ??= await createEverythingServer().listen({ transport: 'http', port: 0, retryMs: 50, keepAliveMs: 0 });
  return listener.url;
}

async function openSession(kind: Kind, options: ClientOptions): Promise<Session> {
  const client = new Client(CLIENT_INFO, options);
  return connect(kind, client);
}

async function connect(kind: Kind, client: Client): Promise<Session> {
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  if (kind === 'stdio') {
    const stdio = new Sdk2StdioRecorder(EVERYTHING);
    await client.connect(stdio, TIMEOUT);
    let closing: Promise<ExitInfo> | undefined;
    return { client, recorder: stdio, clientErrors, stdio, close: () => (closing ??= client.close().then(() => stdio.exited)) };
  }
  const http = sdk2HttpRecorder();
  await client.connect(new StreamableHTTPClientTransport(new URL(await httpUrl()), { fetch: http.fetch }), TIMEOUT);
  return { client, recorder: http, clientErrors, http, close: () => client.close().then(() => undefined) };
}

const modernOptions = (capabilities: ClientOptions['capabilities'], mode: 'auto' | { pin: string }): ClientOptions => ({
  capabilities,
  versionNegotiation: { mode },
});

/** Client requests (not notifications) of one method, at or after `since`. */
const requestsOf = (rec: WireRecorder, method: string, since = 0, where: (p: JsonObject) => boolean = () => true) =>
  rec.entries((e) => e.direction === 'client->server' && 'id' in e.message && e.message.method === method && where(paramsOf(e)), since);

/** The raw result of the server's single response to a request entry. */
function resultTo(rec: WireRecorder, request: WireEntry): JsonObject {
  const responses = rec.responsesTo(request.message.id);
  expect(responses).toHaveLength(1);
  expect(responses[0].message).toHaveProperty('result');
  return responses[0].message.result as JsonObject;
}

/**
 * The SDK 2.x client, like 1.x (modelcontextprotocol/typescript-sdk#2580), runs notification
 * handlers a microtask after it reads them but settles responses at once: when stdio delivers the
 * last progress notification and the result in one chunk (test_tool_with_progress writes 100 %
 * right before its result), the response retires the token first and the client reports
 * "Received a progress notification for an unknown token". Tolerated only for a token the client
 * issued whose request was answered AFTER every one of its progress notifications on the wire.
 */
function isLateProgressRace(error: Error, rec: WireRecorder): boolean {
  const match = /^Received a progress notification for an unknown token: (.*)$/s.exec(error.message);
  if (!match) return false;
  const token = ((JSON.parse(match[1]) as JsonObject).params as JsonObject).progressToken;
  const request = rec.wire.find(
    (e) => e.direction === 'client->server' && 'id' in e.message && (paramsOf(e)._meta as JsonObject | undefined)?.progressToken === token,
  );
  if (!request) return false;
  const progress = rec.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/progress' && paramsOf(e).progressToken === token);
  const [response] = rec.responsesTo(request.message.id);
  return response !== undefined && progress.length > 0 && progress.every((e) => e.seq < response.seq);
}

/** Every server result of a session (for the serverInfo SHOULD). */
const resultsOf = (rec: WireRecorder) => rec.inbound().filter((m) => 'result' in m && !('method' in m));

beforeAll(() => assertServerBuilt(EVERYTHING));
afterAll(async () => {
  await listener?.close(0);
});

// ---------------------------------------------------------------------------------------------
// Modern era: 2026-07-28
// ---------------------------------------------------------------------------------------------

/** The multi round-trip fixtures: what each asks (per round, by inputRequests key) and answers. */
const MRTR_CASES: { tool: string; rounds: Record<string, string>[]; text: string }[] = [
  { tool: 'test_input_required_result_elicitation', rounds: [{ user_name: 'elicitation/create' }], text: 'Hello, Alice!' },
  { tool: 'test_input_required_result_sampling', rounds: [{ capital_question: 'sampling/createMessage' }], text: `Sampling result: ${SAMPLED_TEXT}` },
  { tool: 'test_input_required_result_list_roots', rounds: [{ client_roots: 'roots/list' }], text: 'Found 2 root(s)' },
  {
    tool: 'test_input_required_result_multi_round',
    rounds: [{ step1: 'elicitation/create' }, { step2: 'elicitation/create' }],
    text: 'Multi-round complete for Alice who likes teal',
  },
  {
    tool: 'test_input_required_result_multiple_inputs',
    rounds: [{ user_name: 'elicitation/create', greeting: 'sampling/createMessage', client_roots: 'roots/list' }],
    text: `Name: Alice; Greeting: ${SAMPLED_TEXT}; Roots: 2`,
  },
];

describe.each(KINDS)('SDK 2.x client in modern mode (2026-07-28) over %s', (kind) => {
  let s: Session;
  /** A second client declaring no capability at all (pinned instead of auto-negotiated). */
  let bare: Session;
  const asked: Asked[] = [];

  beforeAll(async () => {
    s = await openSession(kind, modernOptions({ elicitation: {}, sampling: {}, roots: {} }, 'auto'));
    answerEverything(s.client, asked);
    bare = await openSession(kind, modernOptions({}, { pin: MODERN_REVISION }));
  });
  afterAll(async () => {
    await Promise.all([s?.close(), bare?.close()]);
  });

  it('connects with server/discover, no initialize, and selects 2026-07-28', async () => {
    expect(s.client.getProtocolEra()).toBe('modern');
    expect(s.client.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
    expect(s.client.getServerVersion()).toMatchObject({ name: 'typemcp-everything', version: '0.1.0' });
    expect(s.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true }, prompts: { listChanged: true } });
    expect(s.client.getInstructions()).toContain('conformance suite');

    const sent = s.recorder.wire.filter((e) => e.direction === 'client->server');
    expect(sent[0].message.method).toBe('server/discover');
    expect(sent.some((e) => e.message.method === 'initialize' || e.message.method === 'notifications/initialized')).toBe(false);
    const probe = resultTo(s.recorder, sent[0]);
    expect(probe).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: expect.stringMatching(/^(public|private)$/) });
    expect(probe.supportedVersions).toEqual(expect.arrayContaining([MODERN_REVISION, '2025-11-25']));
    expect((probe._meta as JsonObject)[META.serverInfo]).toMatchObject({ name: 'typemcp-everything', version: '0.1.0' });

    // An explicit server/discover says the same.
    const discovered = await s.client.discover(TIMEOUT);
    expect(discovered.supportedVersions).toEqual(expect.arrayContaining([MODERN_REVISION, '2025-11-25']));
    expect(discovered.capabilities).toEqual(probe.capabilities);
    expect(requestsOf(s.recorder, 'server/discover')).toHaveLength(2);

    expect(bare.client.getProtocolEra()).toBe('modern');
    expect(bare.client.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
    if (s.http) {
      // Stateless: the server handed out no session.
      expect(s.http.exchanges.every((e) => e.sessionId === null)).toBe(true);
    }
  });

  it('lists tools and calls test_simple_text and add; every request carries the _meta envelope', async () => {
    const mark = s.recorder.mark();
    const { tools } = await s.client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['add', 'test_simple_text', 'test_tool_with_progress', ...MRTR_CASES.map((c) => c.tool)]));
    const listed = resultTo(s.recorder, requestsOf(s.recorder, 'tools/list', mark)[0]);
    expect(listed).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: expect.any(String) });

    expect(textOf(await s.client.callTool({ name: 'test_simple_text', arguments: {} }, TIMEOUT))).toBe('This is a simple text response for testing.');
    expect(textOf(await s.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, TIMEOUT))).toBe('3');
    const added = resultTo(s.recorder, requestsOf(s.recorder, 'tools/call', mark, (p) => p.name === 'add')[0]);
    expect(added).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: '3' }] });

    for (const e of s.recorder.entries((x) => x.direction === 'client->server' && 'id' in x.message && x.message.method !== 'server/discover', mark)) {
      const meta = paramsOf(e)._meta as JsonObject;
      expect(meta[META.protocolVersion]).toBe(MODERN_REVISION);
      expect(meta[META.clientInfo]).toEqual(CLIENT_INFO);
      expect(meta[META.clientCapabilities]).toEqual({ elicitation: {}, sampling: {}, roots: {} });
    }
  });

  it('lists and reads resources, lists and gets prompts, completes an argument', async () => {
    const mark = s.recorder.mark();
    const { resources } = await s.client.listResources(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['test://static-text', 'test://static-binary', 'test://watched-resource']));
    const { resourceTemplates } = await s.client.listResourceTemplates(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('test://template/{id}/data');
    const { prompts } = await s.client.listPrompts(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['test_simple_prompt', 'test_prompt_with_arguments']));
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
      expect(resultTo(s.recorder, requestsOf(s.recorder, method, mark)[0])).toMatchObject({
        resultType: 'complete',
        ttlMs: expect.any(Number),
        cacheScope: expect.any(String),
      });
    }

    const read = await s.client.readResource({ uri: 'test://static-text' }, TIMEOUT);
    expect(read.contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]);
    expect(resultTo(s.recorder, requestsOf(s.recorder, 'resources/read', mark)[0])).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: expect.any(String),
    });

    const prompt = await s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'one', arg2: 'two' } }, TIMEOUT);
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } }]);
    const simple = await s.client.getPrompt({ name: 'test_simple_prompt' }, TIMEOUT);
    expect(simple.messages[0].content).toEqual({ type: 'text', text: 'This is a simple prompt for testing.' });
    expect(resultTo(s.recorder, requestsOf(s.recorder, 'prompts/get', mark)[0])).toMatchObject({ resultType: 'complete' });

    const completed = await s.client.complete(
      { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'te' } },
      TIMEOUT,
    );
    expect(completed.completion.values).toEqual(['test', 'testValue1']);
  });

  it('reports progress of test_tool_with_progress through the progress callback, before the result', async () => {
    const mark = s.recorder.mark();
    const progress: number[] = [];
    const result = await s.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { ...TIMEOUT, onprogress: (p) => progress.push(p.progress) });
    const request = requestsOf(s.recorder, 'tools/call', mark, (p) => p.name === 'test_tool_with_progress')[0];
    const token = (paramsOf(request)._meta as JsonObject).progressToken;
    expect(token).toBeDefined();
    // The tool answers with the token it was given.
    expect(textOf(result)).toBe(String(token));

    // The server wrote every step, then the result.
    const response = s.recorder.responsesTo(request.message.id)[0];
    const sent = s.recorder.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/progress', mark);
    expect(sent.map((e) => paramsOf(e))).toEqual(
      [0, 50, 100].map((step) => ({ progressToken: token, progress: step, total: 100, message: `Completed step ${step} of 100` })),
    );
    for (const e of sent) expect(e.seq).toBeLessThan(response.seq);
    // The callback saw all of them in order: the result was written apart from the last one (ProgressPacer).
    expect(progress).toEqual([0, 50, 100]);
  });

  it.each(MRTR_CASES)('$tool: the client answers input_required through its handlers and retries', async ({ tool, rounds, text }) => {
    const mark = s.recorder.mark();
    const askedBefore = asked.length;
    expect(textOf(await s.client.callTool({ name: tool, arguments: {} }, TIMEOUT))).toBe(text);

    const requests = requestsOf(s.recorder, 'tools/call', mark, (p) => p.name === tool);
    expect(requests).toHaveLength(rounds.length + 1);
    expect(new Set(requests.map((r) => JSON.stringify(r.message.id))).size).toBe(requests.length); // a fresh id per round
    const mine = asked.slice(askedBefore);
    rounds.forEach((round, i) => {
      const answer = resultTo(s.recorder, requests[i]);
      expect(answer.resultType).toBe('input_required');
      expect(typeof answer.requestState).toBe('string');
      const inputRequests = answer.inputRequests as Record<string, { method: string; params?: JsonObject }>;
      expect(Object.fromEntries(Object.entries(inputRequests).map(([key, r]) => [key, r.method]))).toEqual(round);
      // Each handler was asked exactly what the server put in inputRequests...
      for (const request of Object.values(inputRequests)) {
        expect(mine.filter((a) => a.method === request.method)).toContainEqual({
          method: request.method,
          params: expect.objectContaining(request.params ?? {}),
        });
      }
      // ...and the retry carries every answer under its key, and the request state byte for byte.
      const retry = paramsOf(requests[i + 1]);
      expect(retry.requestState).toBe(answer.requestState);
      expect(Object.keys(retry.inputResponses as JsonObject).sort()).toEqual(Object.keys(round).sort());
      expect(retry.arguments).toEqual({});
    });
    expect(mine.map((a) => a.method).sort()).toEqual(rounds.flatMap((r) => Object.values(r)).sort());
    expect(resultTo(s.recorder, requests[rounds.length])).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text }] });

    // The answers themselves, where they are checkable.
    const responses = rounds.map((_, i) => paramsOf(requests[i + 1]).inputResponses as JsonObject);
    const all = Object.assign({}, ...responses) as JsonObject;
    if ('user_name' in all) expect(all.user_name).toEqual({ action: 'accept', content: { name: 'Alice' } });
    if ('client_roots' in all) expect(all.client_roots).toEqual({ roots: ROOTS });
    if ('step2' in all) expect(all.step2).toEqual({ action: 'accept', content: { color: 'teal' } });
  });

  it('test_missing_capability without the sampling capability: error -32021 naming it', async () => {
    const mark = bare.recorder.mark();
    await expect(bare.client.callTool({ name: 'test_missing_capability', arguments: {} }, TIMEOUT)).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    const request = requestsOf(bare.recorder, 'tools/call', mark)[0];
    expect((paramsOf(request)._meta as JsonObject)[META.clientCapabilities]).toEqual({});
    const [response] = bare.recorder.responsesTo(request.message.id);
    expect(response.message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    if (bare.http) expect(bare.http.exchanges.at(-1)).toMatchObject({ method: 'POST', status: 400 });

    // A tool that only asks for what was declared asks nothing of this client.
    expect(textOf(await bare.client.callTool({ name: 'test_input_required_result_capabilities', arguments: {} }, TIMEOUT))).toBe(
      'No supported capabilities declared',
    );
    // With the capabilities declared, the same server asks and the first client answers.
    expect(textOf(await s.client.callTool({ name: 'test_input_required_result_capabilities', arguments: {} }, TIMEOUT))).toBe(
      'capabilities-ok: received elicit_input, sample_input',
    );
  });

  it('subscriptions/listen delivers tools/list_changed after test_trigger_tool_change', async () => {
    const changes: JsonObject[] = [];
    let changed: () => void = () => {};
    s.client.setNotificationHandler('notifications/tools/list_changed', (n) => {
      changes.push(n as unknown as JsonObject);
      changed();
    });
    const next = () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no tools/list_changed within 5 s')), 5000);
        changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });

    const mark = s.recorder.mark();
    const subscription = await s.client.listen({ toolsListChanged: true }, TIMEOUT);
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    const listen = requestsOf(s.recorder, 'subscriptions/listen', mark)[0];
    expect(paramsOf(listen).notifications).toEqual({ toolsListChanged: true });
    // The acknowledgement is the first message carrying the subscription's id.
    const tagged = s.recorder.entries(
      (e) =>
        e.direction === 'server->client' &&
        isObject(paramsOf(e)._meta) &&
        JSON.stringify((paramsOf(e)._meta as JsonObject)[META.subscriptionId]) === JSON.stringify(listen.message.id),
      mark,
    );
    expect(tagged[0].message).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } });

    let seen = next();
    expect(textOf(await s.client.callTool({ name: 'test_trigger_tool_change', arguments: {} }, TIMEOUT))).toBe('added test_triggered_tool');
    await seen;
    expect((await s.client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' })).tools.map((t) => t.name)).toContain('test_triggered_tool');
    expect(textOf(await s.client.callTool({ name: 'test_triggered_tool', arguments: {} }, TIMEOUT))).toBe('triggered tool called');

    seen = next();
    expect(textOf(await s.client.callTool({ name: 'test_trigger_tool_change', arguments: {} }, TIMEOUT))).toBe('removed test_triggered_tool');
    await seen;
    expect((await s.client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' })).tools.map((t) => t.name)).not.toContain('test_triggered_tool');

    expect(changes).toHaveLength(2);
    for (const n of changes)
      expect(n).toMatchObject({ method: 'notifications/tools/list_changed', params: { _meta: { [META.subscriptionId]: listen.message.id } } });
    const onWire = s.recorder.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/tools/list_changed', mark);
    expect(onWire).toHaveLength(2);
    if (s.http) {
      // Over HTTP they travel on the listen request's own SSE stream.
      for (const e of [tagged[0], ...onWire]) expect(s.http.exchangeOf(e.seq).method).toBe('POST');
      expect(new Set([tagged[0], ...onWire].map((e) => s.http!.carriedBy.get(e.seq))).size).toBe(1);
    }
    // The bare client, which did not listen, was told nothing.
    expect(bare.recorder.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/tools/list_changed')).toEqual([]);

    await subscription.close();
    expect(await subscription.closed).toBe('local');
    // The cancelled listen request is never answered (the server keeps serving).
    expect(textOf(await s.client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }, TIMEOUT))).toBe('4');
    expect(s.recorder.responsesTo(listen.message.id)).toEqual([]);
  });

  it('schema: every message the server sent validates against the closed 2026-07-28 schema', () => {
    for (const session of [s, bare]) {
      const report = validateServerTraffic(MODERN_REVISION, session.recorder.wire);
      expect(describeFailures(report.failures)).toEqual([]);
      // No server->client request in this era: input_required results instead.
      expect(session.recorder.inbound().filter((m) => 'method' in m && 'id' in m)).toEqual([]);
      // serverInfo is a SHOULD on every response.
      for (const result of resultsOf(session.recorder)) {
        expect(((result.result as JsonObject)._meta as JsonObject | undefined)?.[META.serverInfo]).toMatchObject({ name: 'typemcp-everything' });
      }
      expect(session.clientErrors.filter((e) => !isLateProgressRace(e, session.recorder)).map(String)).toEqual([]);
    }
    // Not vacuous: every kind of result, input_required, an error, the notifications.
    const report = validateServerTraffic(MODERN_REVISION, s.recorder.wire);
    const bareReport = validateServerTraffic(MODERN_REVISION, bare.recorder.wire);
    expect(report.checked).toBeGreaterThanOrEqual(35);
    expect([...Object.keys(report.byDefinition), ...Object.keys(bareReport.byDefinition)]).toEqual(
      expect.arrayContaining([
        ...coreDefinitions(MODERN_REVISION, true),
        'ProgressNotification',
        'SubscriptionsAcknowledgedNotification',
        'ToolListChangedNotification',
        'MissingRequiredClientCapabilityError',
      ]),
    );
  });

  if (kind === 'stdio') {
    it('closes cleanly: both children exit with code 0, nothing on stderr but the start-up line', async () => {
      expect(await s.close()).toEqual({ code: 0, signal: null });
      expect(await bare.close()).toEqual({ code: 0, signal: null });
      for (const { stdio } of [s, bare]) {
        // Whatever the server wrote while shutting down is schema-valid too.
        expect(describeFailures(validateServerTraffic(MODERN_REVISION, stdio!.wire).failures)).toEqual([]);
        expect(stdio!.stderrText).toMatch(ONLY_THE_BANNER);
        expect(stdio!.transportErrors.map(String)).toEqual([]);
        expect(stdio!.deliveredToClient).toBe(stdio!.inbound().length);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Legacy era: the same SDK 2.x client, initialize at 2025-11-25
// ---------------------------------------------------------------------------------------------

describe.each(KINDS)('SDK 2.x client in legacy mode (initialize at 2025-11-25) over %s', (kind) => {
  let s: Session;
  const asked: Asked[] = [];

  beforeAll(async () => {
    const client = new Client(CLIENT_INFO, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
    answerEverything(client, asked);
    s = await connect(kind, client);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('initializes at 2025-11-25 without probing', () => {
    expect(s.client.getProtocolEra()).toBe('legacy');
    expect(s.client.getNegotiatedProtocolVersion()).toBe(LEGACY_REVISION);
    expect(s.client.getServerVersion()).toMatchObject({ name: 'typemcp-everything', version: '0.1.0' });
    const sent = s.recorder.wire.filter((e) => e.direction === 'client->server');
    expect(sent.map((e) => e.message.method).slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(paramsOf(sent[0]).protocolVersion).toBe(LEGACY_REVISION);
    expect(resultTo(s.recorder, sent[0])).toMatchObject({ protocolVersion: LEGACY_REVISION, serverInfo: { name: 'typemcp-everything' } });
    expect(requestsOf(s.recorder, 'server/discover')).toEqual([]);
    if (s.http) expect(s.http.exchanges[0].sessionId).toBeNull(); // then the server assigns one
  });

  it('lists and calls tools; no 2026-07-28 fields in the results', async () => {
    const mark = s.recorder.mark();
    const { tools } = await s.client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'test_simple_text', 'test_input_required_result_elicitation']));
    expect(textOf(await s.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, TIMEOUT))).toBe('3');
    expect(textOf(await s.client.callTool({ name: 'test_simple_text', arguments: {} }, TIMEOUT))).toBe('This is a simple text response for testing.');
    for (const result of resultsOf(s.recorder).slice(-3)) {
      for (const key of ['resultType', 'ttlMs', 'cacheScope']) expect(result.result).not.toHaveProperty(key);
    }
    for (const e of s.recorder.entries((x) => x.direction === 'client->server' && 'id' in x.message, mark)) {
      expect(paramsOf(e)._meta ?? {}).not.toHaveProperty([META.protocolVersion]);
    }
  });

  it('test_input_required_result_elicitation asks through a real elicitation/create request', async () => {
    const mark = s.recorder.mark();
    const askedBefore = asked.length;
    expect(textOf(await s.client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, TIMEOUT))).toBe('Hello, Alice!');
    expect(asked.slice(askedBefore)).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'What is your name?' }) }]);

    const calls = requestsOf(s.recorder, 'tools/call', mark);
    expect(calls).toHaveLength(1); // no retry: the question travelled as a request
    const question = s.recorder.entries((e) => e.direction === 'server->client' && e.message.method === 'elicitation/create' && 'id' in e.message, mark);
    expect(question).toHaveLength(1);
    const answer = s.recorder.entries(
      (e) => e.direction === 'client->server' && !('method' in e.message) && JSON.stringify(e.message.id) === JSON.stringify(question[0].message.id),
      mark,
    );
    expect(answer.map((e) => e.message.result)).toEqual([{ action: 'accept', content: { name: 'Alice' } }]);
    const result = s.recorder.responsesTo(calls[0].message.id)[0];
    expect(question[0].seq).toBeLessThan(result.seq);
    expect(result.message.result).toEqual({ content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  it('schema: every message the server sent validates against the closed 2025-11-25 schema', () => {
    const revision: SchemaRevision = LEGACY_REVISION;
    const report = validateServerTraffic(revision, s.recorder.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    expect(report.checked).toBeGreaterThanOrEqual(6);
    expect(Object.keys(report.byDefinition)).toEqual(expect.arrayContaining(['InitializeResult', 'ListToolsResult', 'CallToolResult', 'ServerRequest']));
    expect(s.clientErrors.filter((e) => !isLateProgressRace(e, s.recorder)).map(String)).toEqual([]);
  });

  if (kind === 'stdio') {
    it('closes cleanly: the child exits with code 0, nothing on stderr but the start-up line', async () => {
      expect(await s.close()).toEqual({ code: 0, signal: null });
      expect(describeFailures(validateServerTraffic(LEGACY_REVISION, s.stdio!.wire).failures)).toEqual([]);
      expect(s.stdio!.stderrText).toMatch(ONLY_THE_BANNER);
      expect(s.stdio!.transportErrors.map(String)).toEqual([]);
      expect(s.stdio!.deliveredToClient).toBe(s.stdio!.inbound().length);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The 2026-07-28 support of test/support/spec-schemas.ts is not vacuous
// ---------------------------------------------------------------------------------------------

describe('the closed 2026-07-28 schema check (test/support/spec-schemas.ts)', () => {
  /** The checks that failed for one request/answer pair. */
  const failed = (request: JsonObject, answer: JsonObject) =>
    validateServerTraffic(MODERN_REVISION, [
      { seq: 0, at: 0, direction: 'client->server', message: { jsonrpc: '2.0', id: 1, ...request } },
      { seq: 1, at: 0, direction: 'server->client', message: { jsonrpc: '2.0', ...answer } },
    ]).failures.map((f) => f.check);
  const call = { method: 'tools/call', params: { name: 't' } };
  const list = { method: 'tools/list' };
  const complete = { resultType: 'complete', content: [{ type: 'text', text: 'x' }] };
  const inputRequired = {
    resultType: 'input_required',
    inputRequests: {
      q: { method: 'elicitation/create', params: { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } } },
    },
    requestState: 'opaque',
  };

  it('checks results by resultType and method, and rejects what the revision lacks', () => {
    expect(failed(call, { id: 1, result: complete })).toEqual([]);
    expect(failed(call, { id: 1, result: inputRequired })).toEqual([]);
    // Closed: a CallToolResult is not cacheable, an InputRequiredResult has nothing else.
    expect(failed(call, { id: 1, result: { ...complete, ttlMs: 0 } })).toEqual(['CallToolResult (tools/call)']);
    expect(failed(call, { id: 1, result: { ...inputRequired, extra: true } })).toEqual(['InputRequiredResult (tools/call)']);
    // resultType is required and must be one the revision defines.
    expect(failed(call, { id: 1, result: { content: [] } })).toEqual(
      expect.arrayContaining([expect.stringMatching(/resultType must be one of/), 'CallToolResult (tools/call)']),
    );
    expect(failed(call, { id: 1, result: { ...complete, resultType: 'partial' } })).toEqual([expect.stringMatching(/resultType must be one of/)]);
    // tools/list may not ask for input, and its result is cacheable (ttlMs, cacheScope required).
    expect(failed(list, { id: 1, result: inputRequired })).toEqual(['tools/list may not answer input_required in 2026-07-28']);
    expect(failed(list, { id: 1, result: { resultType: 'complete', tools: [] } })).toEqual(['ListToolsResult (tools/list)']);
    expect(failed(list, { id: 1, result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' } })).toEqual([]);
    // No server->client requests; errors by code; notifications by method.
    expect(failed(call, { id: 'x', method: 'elicitation/create', params: {} })).toEqual([expect.stringMatching(/server->client request elicitation\/create/)]);
    expect(failed(call, { id: 1, error: { code: -32021, message: 'm' } })).toEqual(['MissingRequiredClientCapabilityError (-32021)']);
    expect(failed(call, { method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, extra: 1 } })).toEqual(
      expect.arrayContaining(['SubscriptionsAcknowledgedNotification (notifications/subscriptions/acknowledged)']),
    );
  });
});
