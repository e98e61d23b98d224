/**
 * MCP Apps (io.modelcontextprotocol/ui, ext-apps 2026-01-26) on the everything server over
 * Streamable HTTP, driven by the official SDK 1.x client at 2025-11-25 and the SDK 2.x client at
 * 2025-11-25 and 2026-07-28 (per-request `_meta` capabilities), each as a client that declares
 * the extension and one that does not:
 *
 * - every `_meta` the server sends for the extension validates against the published schema of
 *   `@modelcontextprotocol/ext-apps` 2.0.4 (`schema.json`): the tool's `_meta.ui`
 *   (`McpUiToolMeta`, closed: `csp`/`permissions` there are refused), the view's content item
 *   `_meta.ui` (`McpUiResourceMeta`, closed), the settings (the shape of `McpUiClientCapabilities`,
 *   closed; the schema has no definition for a server's settings);
 * - show_counter answers everyone the text fallback `Counter: N` beside `structuredContent`;
 * - the app-only increment_counter is in `tools/list` (visibility ["app"]) for a declaring client,
 *   out of the list of one that did not declare (it has no view; the model must not see it), and
 *   answers a `tools/call` from both (the server cannot tell a view's call from the model's);
 * - the view reads as exactly one item, MIME exactly `text/html;profile=mcp-app`;
 * - every message validates against the revision's closed MCP schema.
 *
 * Needs the view bundled (`npm run build`: typemcp build writes dist/apps/counter.html).
 */
import { existsSync } from 'node:fs';
import { Client as Client2, StreamableHTTPClientTransport as Http2, type ClientOptions } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import type { HttpListenerHandle } from '@typemcp/core';
import { HttpWireRecorder } from '../../../test/support/http-session';
import { describeFailures, validateServerTraffic, type JsonObject } from '../../../test/support/spec-schemas';
import { createEverythingServer } from '../src/everything.server';
import { COUNTER_HTML } from '../src/services/apps.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const uiSchema = require('@modelcontextprotocol/ext-apps/schema.json') as { $id: string; $defs: Record<string, unknown> };

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const VIEW = 'ui://everything/counter';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(uiSchema);
/** The errors of `value` against a definition of ext-apps' schema.json (empty: valid). */
function against(def: string): (value: unknown) => ErrorObject[] {
  const validate = ajv.getSchema(`${uiSchema.$id}#/$defs/${def}`);
  if (!validate) throw new Error(`no ${def} in ext-apps' schema.json`);
  return (value) => (validate(value) ? [] : [...(validate.errors ?? [])]);
}
const toolMeta = against('McpUiToolMeta');
const resourceMeta = against('McpUiResourceMeta');
const settingsShape = against('McpUiClientCapabilities');

interface Tool {
  name: string;
  _meta?: Record<string, unknown>;
}

/** What the assertions need of either SDK's client. */
interface AppsClient {
  serverExtensions(): Record<string, unknown> | undefined;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: JsonObject): Promise<{ content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean }>;
  listResources(): Promise<{ uri: string; mimeType?: string }[]>;
  readResource(uri: string): Promise<{ contents: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[] }>;
  close(): Promise<void>;
}

const DECLARED = { extensions: { [UI]: { mimeTypes: [MIME] } } };

let listener: HttpListenerHandle;

beforeAll(async () => {
  if (!existsSync(COUNTER_HTML)) throw new Error(`${COUNTER_HTML} is missing: npm run build bundles the view`);
  listener = await createEverythingServer().listen({ transport: 'http', port: 0, keepAliveMs: 0 });
});
afterAll(() => listener?.close(0));

async function sdk1(declare: boolean, recorder: HttpWireRecorder): Promise<AppsClient> {
  const client = new Client1({ name: 'sdk1', version: '1.0.0' }, { capabilities: declare ? (DECLARED as never) : {} });
  await client.connect(new Http1(new URL(listener.url), { fetch: recorder.fetch as typeof fetch }));
  return {
    serverExtensions: () => (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions,
    listTools: async () => (await client.listTools()).tools as Tool[],
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
    listResources: async () => (await client.listResources()).resources,
    readResource: async (uri) => (await client.readResource({ uri })) as never,
    close: () => client.close(),
  };
}

async function sdk2(declare: boolean, recorder: HttpWireRecorder, options: ClientOptions): Promise<AppsClient> {
  const client = new Client2({ name: 'sdk2', version: '1.0.0' }, { ...options, capabilities: declare ? DECLARED : {} });
  await client.connect(new Http2(new URL(listener.url), { fetch: recorder.fetch }));
  return {
    serverExtensions: () => client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined,
    listTools: async () => (await client.listTools()).tools as Tool[],
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
    listResources: async () => (await client.listResources()).resources,
    readResource: async (uri) => (await client.readResource({ uri })) as never,
    close: () => client.close(),
  };
}

const CASES = [
  ['SDK 1.x', '2025-11-25', (declare: boolean, r: HttpWireRecorder) => sdk1(declare, r)],
  ['SDK 2.x', '2025-11-25', (declare: boolean, r: HttpWireRecorder) => sdk2(declare, r, {})],
  ['SDK 2.x', '2026-07-28', (declare: boolean, r: HttpWireRecorder) => sdk2(declare, r, { versionNegotiation: { mode: { pin: '2026-07-28' } } })],
] as const;

describe.each(CASES)('MCP Apps with the %s client at %s', (_sdk, revision, connect) => {
  it.each([
    ['declares the extension', true],
    ['does not declare it', false],
  ])('a client that %s', async (_what, declare) => {
    // The recorder's revision only pins legacy requests; 2026-07-28 ones carry their own (as in echo-ext.e2e).
    const recorder = new HttpWireRecorder('2025-11-25', true);
    const client = await connect(declare, recorder);
    try {
      // The server's side of the negotiation, whatever the client declared.
      const settings = client.serverExtensions()?.[UI];
      expect(settings).toEqual({ mimeTypes: [MIME] });
      expect(settingsShape(settings)).toEqual([]);

      const tools = await client.listTools();
      const show = tools.find((t) => t.name === 'show_counter');
      expect(show?._meta).toEqual({ ui: { resourceUri: VIEW, visibility: ['model', 'app'] }, 'ui/resourceUri': VIEW });
      expect(toolMeta(show?._meta?.ui)).toEqual([]);
      const increment = tools.find((t) => t.name === 'increment_counter');
      if (declare) {
        expect(increment?._meta).toEqual({ ui: { resourceUri: VIEW, visibility: ['app'] }, 'ui/resourceUri': VIEW });
        expect(toolMeta(increment?._meta?.ui)).toEqual([]);
      } else {
        expect(increment).toBeUndefined();
      }
      // Every tool's _meta.ui the server lists validates (other tools have none).
      for (const tool of tools) if (tool._meta?.ui !== undefined) expect([tool.name, toolMeta(tool._meta.ui)]).toEqual([tool.name, []]);

      // The text fallback for every client, the structured count for the view.
      const shown = await client.callTool('show_counter', { start: 5 });
      expect(shown.content).toEqual([{ type: 'text', text: 'Counter: 5' }]);
      expect(shown.structuredContent).toEqual({ count: 5 });
      // Listed or not, the app-only tool answers a call.
      const incremented = await client.callTool('increment_counter', { by: 2 });
      expect(incremented.structuredContent).toEqual({ count: 7 });
      expect(incremented.content).toEqual([{ type: 'text', text: 'Counter: 7' }]);
      expect((await client.callTool('show_counter', {})).structuredContent).toEqual({ count: 7 });
      const refused = await client
        .callTool('increment_counter', { by: 1.5 })
        .catch((e: unknown) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));
      expect(refused.isError).toBe(true);

      const view = (await client.listResources()).find((r) => r.uri === VIEW);
      expect(view?.mimeType).toBe(MIME);
      const read = await client.readResource(VIEW);
      expect(read.contents).toHaveLength(1);
      const [item] = read.contents;
      expect(item).toEqual({ uri: VIEW, mimeType: MIME, text: expect.stringMatching(/^<!doctype html>/i), _meta: { ui: { prefersBorder: true } } });
      expect(resourceMeta(item._meta?.ui)).toEqual([]);
      // One self-contained file: nothing the sandboxed frame would have to fetch.
      expect(item.text).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*\bhref=/i);
      expect(item.text).toContain('<button id="increment"');

      const report = validateServerTraffic(revision, recorder.wire);
      expect(describeFailures(report.failures)).toEqual([]);
      expect(report.byDefinition).toMatchObject({ ListToolsResult: expect.any(Number) });
    } finally {
      await client.close();
    }
  });
});

describe("ext-apps' schema.json refuses what hosts must never get", () => {
  it("CSP or permissions on a tool, unknown keys in a view's _meta.ui, an unknown visibility", () => {
    expect(toolMeta({ resourceUri: VIEW, csp: { connectDomains: [] } })).not.toEqual([]);
    expect(toolMeta({ resourceUri: VIEW, visibility: ['agent'] })).not.toEqual([]);
    expect(resourceMeta({ csp: { connectDomains: ['https://api.example.com'] }, extra: true })).not.toEqual([]);
    expect(
      resourceMeta({ csp: { connectDomains: ['https://api.example.com'] }, permissions: { camera: {} }, prefersBorder: false, domain: 'a.example.com' }),
    ).toEqual([]);
  });
});
