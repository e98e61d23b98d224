/**
 * The checks every runtime serving the everything app through createFetchHandler passes, with
 * the OFFICIAL SDK 2.x client over real HTTP on loopback: discover (2026-07-28), list, a call
 * with progress, a multi-round input_required request, an error, the legacy initialize
 * handshake; then the transport's own refusals (Host check, body cap), sent raw.
 */
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { rawRequest } from '../../../../test/support/raw-http';
import { MODERN_REVISION } from '../../../../test/support/spec-schemas';

const TIMEOUT = { timeout: 10_000 };
const CLIENT_INFO = { name: 'typemcp-fetch-runtime-e2e', version: '1.0.0' };
const ROOTS = [{ uri: 'file:///work/project', name: 'project' }];

interface Text {
  content: { type: string; text?: string }[];
}
const textOf = (result: unknown): string | undefined => {
  const { content } = result as Text;
  expect(content).toHaveLength(1);
  return content[0].text;
};

/** A client that answers elicitation, sampling and roots as a user would. */
function answeringClient(options: ClientOptions): Client {
  const client = new Client(CLIENT_INFO, { ...options, capabilities: { elicitation: {}, sampling: {}, roots: {} } });
  client.setRequestHandler('elicitation/create', async (request) => {
    const fields = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
    const values: Record<string, string> = { name: 'Alice', color: 'teal' };
    return { action: 'accept', content: Object.fromEntries(fields.filter((f) => f in values).map((f) => [f, values[f]])) };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    model: 'e2e-model',
    role: 'assistant',
    content: { type: 'text', text: 'Paris.' },
    stopReason: 'endTurn',
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }));
  return client;
}

export interface RuntimeChecks {
  /** Whether the runtime keeps sessions between requests (stateful Streamable HTTP): not on workerd, served stateless. */
  readonly sessions: boolean;
}

/** `add`: a tool with DTO arguments, checked by core's Ajv validators (precompiled on workerd, which forbids compiling them). */
const addCall = (a: number, b: number) => ({ call: { name: 'add', arguments: { a, b } }, text: String(a + b) });
/** What `add` answers to arguments its schema refuses, every fault named. */
const BAD_ADD = { call: { name: 'add', arguments: { a: 'x' } }, text: 'Invalid arguments: `b` is required; `a` must be a number (got string "x")' };

/** Registers the checks against the MCP endpoint `url()` (known once the beforeAll of the caller ran). */
export function fetchRuntimeChecks(url: () => string, { sessions }: RuntimeChecks): void {
  describe('2026-07-28 (server/discover, stateless)', () => {
    let client: Client;
    beforeAll(async () => {
      client = answeringClient({ versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url())), TIMEOUT);
    });
    afterAll(() => client?.close());

    it('discovers and selects 2026-07-28', () => {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
      expect(client.getServerVersion()).toMatchObject({ name: 'typemcp-everything' });
    });

    it('lists tools and calls one', async () => {
      const { tools } = await client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'test_tool_with_progress', 'test_input_required_result_multi_round']));
      const { call, text } = addCall(2, 3);
      expect(textOf(await client.callTool(call, TIMEOUT))).toBe(text);
    });

    it('refuses arguments the DTO refuses, naming each fault', async () => {
      const result = await client.callTool(BAD_ADD.call, TIMEOUT);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(BAD_ADD.text);
    });

    it('streams progress (SSE in a ReadableStream) before the result', async () => {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { ...TIMEOUT, onprogress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([0, 50, 100]);
      expect(textOf(result)).toMatch(/\S/);
    });

    it('a multi-round input_required request: two elicitation rounds, then the result', async () => {
      const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} }, TIMEOUT);
      expect(textOf(result)).toBe('Multi-round complete for Alice who likes teal');
    });

    it('an unknown tool is a JSON-RPC error', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} }, TIMEOUT)).rejects.toMatchObject({
        message: expect.stringContaining('no_such_tool'),
      });
    });
  });

  describe(`2025-11-25 (initialize${sessions ? ', a session' : ', stateless'})`, () => {
    let client: Client;
    let transport: StreamableHTTPClientTransport;
    beforeAll(async () => {
      client = answeringClient({});
      transport = new StreamableHTTPClientTransport(new URL(url()));
      await client.connect(transport, TIMEOUT);
    });
    afterAll(() => client?.close());

    it('initializes', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      if (sessions) expect(transport.sessionId).toMatch(/\S/);
      else expect(transport.sessionId).toBeUndefined();
    });

    it('lists and calls tools', async () => {
      const { tools } = await client.listTools(undefined, TIMEOUT);
      expect(tools.some((t) => t.name === 'add')).toBe(true);
      const { call, text } = addCall(1, 2);
      expect(textOf(await client.callTool(call, TIMEOUT))).toBe(text);
    });

    if (sessions) {
      it('a server->client elicitation/create request on the session, answered by the client', async () => {
        expect(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, TIMEOUT))).toBe('Hello, Alice!');
      });
    }
  });

  describe('the transport refuses as serveHttp does', () => {
    const post = (headers: Record<string, string>, body: string) =>
      rawRequest(url(), 'POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

    it('a foreign Host (DNS rebinding): 403 TYPEMCP_HTTP_FORBIDDEN_HOST', async () => {
      const answer = await post({ host: 'evil.example:80' }, ping);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_FORBIDDEN_HOST' } } });
    });

    it('a foreign Origin: 403 TYPEMCP_HTTP_FORBIDDEN_ORIGIN', async () => {
      const answer = await post({ origin: 'https://evil.example' }, ping);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN' } } });
    });

    it('a body over maxBodyBytes (64 KiB here): 413 TYPEMCP_HTTP_PAYLOAD_TOO_LARGE', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } });
      const answer = await post({}, big);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_PAYLOAD_TOO_LARGE' } } });
    });

    it('GET /livez answers (beside the MCP endpoint, under its prefix if any)', async () => {
      const answer = await rawRequest(new URL('livez', url()).href, 'GET', {});
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    });
  });
}
