/**
 * The third-party-style extension `com.example/echo-ext` (echo-ext.extension.ts, written with
 * @typemcp/core's public API only) on a real server over Streamable HTTP, driven by the official
 * SDK 2.x client (`@modelcontextprotocol/client`, custom methods and extension capabilities) at
 * 2025-11-25 (initialize) and 2026-07-28 (`server/discover`, per-request `_meta`), as a client that
 * declares the extension and one that does not. Every message the server sends is checked against
 * the closed schema of the revision (test/support/spec-schemas.ts, with SEP-2133's `extensions`
 * in the 2025-11-25 capabilities), the extension's results and `_meta` against its own schema
 * (echo-ext.schema.json).
 */
import { Client, ProtocolError, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { IsString } from 'class-validator';
import { z } from 'zod';
import { Context, createServer, McpService, Tool, type HttpListenerHandle } from '@typemcp/core';
import type {} from '@typemcp/http';
import { HttpWireRecorder } from '../support/http-session';
import { describeFailures, validateServerTraffic, type JsonObject } from '../support/spec-schemas';
import schema from './echo-ext.schema.json';
import { ECHO_EXT, Echo, echoExtension, EchoSource } from './echo-ext.extension';

class ShoutInput {
  @IsString() text!: string;
}

@McpService()
class EchoService {
  @Tool({ description: 'Shouts its text' })
  @Echo({ label: 'loud' })
  shout(input: ShoutInput) {
    return input.text.toUpperCase();
  }

  @Tool({ description: 'Says what the client declared for echo-ext' })
  @Echo({ label: 'introspective', hidden: true })
  whoami(ctx: Context) {
    const settings = ctx.clientExtension(ECHO_EXT);
    return settings ? `echo-ext with ${JSON.stringify(settings)}` : 'no echo-ext';
  }

  @Tool({ description: 'A tool echo-ext leaves alone' })
  plain() {
    return 'plain';
  }

  @EchoSource()
  greeting(ctx: Context) {
    return `hello ${ctx.clientInfo?.name ?? 'stranger'}`;
  }

  @EchoSource()
  farewell() {
    return 'bye';
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(schema, 'echo-ext');
const echoSchema = (name: string) => {
  const validate = ajv.getSchema(`echo-ext#/$defs/${name}`)!;
  return (value: unknown): ErrorObject[] => (validate(value) ? [] : [...(validate.errors ?? [])]);
};
const EXTENSION_RESULTS = { 'echo/say': echoSchema('SayResult'), 'echo/history': echoSchema('HistoryResult') };

const SayResult = z.looseObject({ text: z.string() });
const HistoryResult = z.looseObject({ entries: z.array(z.object({ source: z.string(), text: z.string() })), nextCursor: z.string().optional() });

const ERAS = [
  ['2025-11-25', {}],
  ['2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
] as const;

let listener: HttpListenerHandle;

beforeAll(async () => {
  const server = createServer({ name: 'echo-ext-e2e', version: '1.0.0', services: [EchoService], extensions: [echoExtension({ maxLength: 16 })], pageSize: 1 });
  listener = await server.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
});
afterAll(() => listener?.close(0));

interface Session {
  client: Client;
  recorder: HttpWireRecorder;
}

async function open(options: ClientOptions, declare: boolean): Promise<Session> {
  const capabilities = declare ? { extensions: { [ECHO_EXT]: { prefix: '>> ' } } } : {};
  const client = new Client({ name: declare ? 'declaring-client' : 'plain-client', version: '1.0.0' }, { ...options, capabilities });
  const recorder = new HttpWireRecorder('2025-11-25', true);
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { fetch: recorder.fetch }));
  return { client, recorder };
}

/** Every page of `echo/history`, through the SDK client. */
async function historyPages(client: Client): Promise<z.infer<typeof HistoryResult>[]> {
  const pages: z.infer<typeof HistoryResult>[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request({ method: 'echo/history', params: cursor ? { cursor } : {} }, HistoryResult);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

async function listToolNames(client: Client): Promise<{ name: string; meta: unknown }[]> {
  const tools: { name: string; meta: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools.map((t) => ({ name: t.name, meta: t._meta?.[ECHO_EXT] })));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The first `tools/list` result the client received. */
function toolsListResult(recorder: HttpWireRecorder): JsonObject | undefined {
  return recorder.inbound().find((m) => Array.isArray((m.result as JsonObject | undefined)?.tools))?.result as JsonObject | undefined;
}

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;

/** What a refused request rejects with: the JSON-RPC error's code and message. */
async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return { code: (error as ProtocolError).code, message: (error as ProtocolError).message };
}

describe.each(ERAS)('com.example/echo-ext with the SDK 2.x client at %s', (revision, options) => {
  const modern = revision === '2026-07-28';

  it('a declaring client: settings, decorated and hidden tools, its method with its settings, pages, read contents', async () => {
    const { client, recorder } = await open(options, true);
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual({ [ECHO_EXT]: { maxLength: 16 } });
      expect(echoSchema('ServerSettings')(client.getServerCapabilities()?.extensions?.[ECHO_EXT])).toEqual([]);

      const tools = await listToolNames(client);
      expect(tools).toEqual([
        { name: 'shout', meta: { label: 'loud' } },
        { name: 'whoami', meta: { label: 'introspective' } },
        { name: 'plain', meta: undefined },
      ]);
      for (const { meta } of tools.filter((t) => t.meta)) expect(echoSchema('ToolMeta')(meta)).toEqual([]);
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('echo-ext with {"prefix":">> "}');

      expect((await client.request({ method: 'echo/say', params: { text: 'hi there' } }, SayResult)).text).toBe('>> hi there');
      expect(await refusal(client.request({ method: 'echo/say', params: { text: 'x'.repeat(17) } }, SayResult))).toEqual({
        code: -32602,
        message: expect.stringContaining('echo/say "text" is longer than 16 characters'),
      });

      const pages = await historyPages(client);
      expect(pages.flatMap((p) => p.entries)).toEqual([
        { source: 'EchoService.greeting', text: 'hello declaring-client' },
        { source: 'EchoService.farewell', text: 'bye' },
      ]);
      expect(pages).toHaveLength(2);

      const read = await client.readResource({ uri: 'echo://last' });
      expect(read.contents).toEqual([{ uri: 'echo://last', mimeType: 'text/plain', text: 'hi there', _meta: { [ECHO_EXT]: { length: 8 } } }]);
      expect(echoSchema('ContentsMeta')(read.contents[0]._meta?.[ECHO_EXT])).toEqual([]);

      // The 2026-07-28 envelope the engine adds to an extension's results, as for the built-in lists.
      const history = recorder.inbound().find((m) => (m.result as JsonObject | undefined)?.entries !== undefined)?.result as JsonObject;
      if (modern) expect(history).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
      else expect(history).not.toHaveProperty('ttlMs');
      // Its tools list depends on what the client declared (the hidden tool): no shared cache may keep it.
      if (modern) expect(toolsListResult(recorder)).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });

      const report = validateServerTraffic(revision, recorder.wire, { extensionResults: EXTENSION_RESULTS });
      expect(describeFailures(report.failures)).toEqual([]);
      // One echo/say answered (the other refused), both history pages.
      expect(report.byDefinition['echo/say']).toBe(1);
      expect(report.byDefinition['echo/history']).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('a client that did not declare it: no hidden tool, no echo/say, everything else as for anyone', async () => {
    const { client, recorder } = await open(options, false);
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual({ [ECHO_EXT]: { maxLength: 16 } });
      expect((await listToolNames(client)).map((t) => t.name)).toEqual(['shout', 'plain']);
      if (modern) expect(toolsListResult(recorder)).toMatchObject({ cacheScope: 'private' });
      // Hidden from its lists, the tool still answers a call.
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('no echo-ext');
      const refused = await refusal(client.request({ method: 'echo/say', params: { text: 'hi' } }, SayResult));
      if (modern) expect(refused).toEqual({ code: -32021, message: expect.stringContaining(`echo/say needs the ${ECHO_EXT} extension`) });
      else expect(refused).toEqual({ code: -32601, message: expect.stringContaining(`the client did not declare the ${ECHO_EXT} extension`) });
      const pages = await historyPages(client);
      expect(pages.flatMap((p) => p.entries.map((e) => e.text))).toEqual(['hello plain-client', 'bye']);
      const report = validateServerTraffic(revision, recorder.wire, { extensionResults: EXTENSION_RESULTS });
      expect(describeFailures(report.failures)).toEqual([]);
      if (modern) {
        const data = recorder.inbound().find((m) => (m.error as JsonObject | undefined)?.code === -32021)?.error as JsonObject;
        expect(data.data).toEqual({ requiredCapabilities: { extensions: { [ECHO_EXT]: {} } } });
      }
    } finally {
      await client.close();
    }
  });
});
