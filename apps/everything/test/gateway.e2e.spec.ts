/**
 * A gateway: a TypeMCP server (one local tool, a global interceptor) serving over Streamable HTTP
 * three mounted servers: another TypeMCP server in this process (`notes`), the BUILT everything
 * app as a stdio child (`stdio`, spoken to at 2025-11-25) and an everything app over Streamable
 * HTTP behind a bearer token (`remote`, spoken to at 2026-07-28). The official SDK 1.x client
 * (2025-11-25) and 2.x client (2025-11-25 and 2026-07-28) list and call through it, with
 * progress, an upstream's elicitation answered by the client (both eras on each side),
 * cancellation reaching the upstream, list changes raised upstream arriving downstream, and the
 * stdio child killed: its tools are withdrawn and come back when the mount has restarted it.
 *
 * Needs the everything app built (`npx tsc -b apps/everything`; npm test builds it).
 */
import * as path from 'node:path';
import { Client as Client2, StreamableHTTPClientTransport as Http2, type ClientOptions } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Context, createServer, McpService, Tool, type HttpListenerHandle, type Interceptor, type InterceptorCall, type TypeMcpServer } from '@typemcp/core';
import { mount, MountedServer, type Mount } from '@typemcp/gateway';
import { assertServerBuilt } from '../../../test/support/stdio-session';
import { createEverythingServer } from '../src/everything.server';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const TOKEN = 'gateway-secret-token';
const TIMEOUT = { timeout: 10_000 };
const SAMPLED = 'Paris, of course.';
const ROOTS = [{ uri: 'file:///work/project', name: 'project' }];

@McpService()
class NotesService {
  static aborted = 0;

  @Tool({ name: 'count', description: 'Counts to three, reporting progress' })
  async count(ctx: Context) {
    for (let i = 1; i <= 3; i++) ctx.progress(i, 3, `step ${i}`);
    return 'counted';
  }

  @Tool({ name: 'wait', description: 'Waits until cancelled' })
  async wait(ctx: Context) {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    NotesService.aborted++;
    return 'stopped';
  }
}

/** Added to the HTTP upstream: how a cancellation that reached it shows. */
@McpService({ deferred: true })
class CancelProbe {
  static aborted = 0;

  @Tool({ name: 'probe_wait', description: 'Waits until cancelled' })
  async wait(ctx: Context) {
    ctx.progress(1);
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    CancelProbe.aborted++;
    return 'stopped';
  }
}

@McpService()
class LocalService {
  @Tool({ name: 'hello', description: 'Says hello from the gateway itself' })
  hello() {
    return 'hello from the gateway';
  }
}

/** Sees every call, local and mounted. */
const seen: { name: string; mounted: boolean }[] = [];
const watcher: Interceptor = {
  intercept(call: InterceptorCall, next) {
    seen.push({ name: call.name, mounted: call.service === MountedServer });
    return next();
  },
};

let remoteUpstream: TypeMcpServer;
let remoteListener: HttpListenerHandle;
let gateway: TypeMcpServer;
let listener: HttpListenerHandle;
let stdio: Mount;
let remote: Mount;

beforeAll(async () => {
  assertServerBuilt({ main: MAIN });
  const notes = createServer({ name: 'notes', version: '1.0.0', services: [NotesService] });
  gateway = createServer({ name: 'gateway', version: '1.0.0', services: [LocalService], interceptors: [watcher] });
  remoteUpstream = createEverythingServer();
  remoteUpstream.addService(CancelProbe);
  remoteListener = await remoteUpstream.listen({ transport: 'http', port: 0, auth: { verify: (token) => (token === TOKEN ? { sub: 'gateway' } : undefined) } });
  await mount(gateway, notes, { namespace: 'notes' });
  stdio = await mount(
    gateway,
    { command: process.execPath, args: [MAIN, '--transport', 'stdio'], stderr: 'ignore', era: 'legacy' },
    { namespace: 'stdio', reconnect: { initialDelayMs: 1000, maxDelayMs: 2000 } },
  );
  remote = await mount(gateway, { url: remoteListener.url, auth: { bearer: TOKEN }, era: 'modern' }, { namespace: 'remote' });
  listener = await gateway.listen({ transport: 'http', port: 0, retryMs: 50, keepAliveMs: 0 });
}, 60_000);

afterAll(async () => {
  await listener?.close(0);
  await gateway?.close();
  await stdio?.close();
  await remote?.close();
  await remoteListener?.close(0);
});

type Text = { content: { type: string; text?: string }[]; isError?: boolean };
const textOf = (result: unknown) => (result as Text).content.map((c) => c.text).join('');

/** Accepts every elicitation, filling the fields it asks for (and records what was asked). */
function elicitationAnswers(asked: unknown[]) {
  return (request: { params: unknown }) => {
    asked.push(request.params);
    const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
    const values: Record<string, string> = { response: 'yes', name: 'Alice' };
    const content = Object.fromEntries(Object.keys(schema?.properties ?? {}).map((f) => [f, values[f] ?? 'x']));
    return { action: 'accept' as const, content };
  };
}

async function sdk1(): Promise<Client1> {
  const client = new Client1({ name: 'sdk1', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
  await client.connect(new Http1(new URL(listener.url)));
  return client;
}

async function sdk2(modern: boolean, capabilities: ClientOptions['capabilities'] = { elicitation: {}, sampling: {}, roots: {} }): Promise<Client2> {
  const client = new Client2({ name: 'sdk2', version: '2.0.0' }, { capabilities, ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) });
  await client.connect(new Http2(new URL(listener.url)), TIMEOUT);
  return client;
}

describe('the mounts', () => {
  it('speak to their upstreams in the eras they were given', () => {
    expect(stdio.era).toBe('legacy');
    expect(remote.era).toBe('modern');
    expect(stdio.upstreamInfo?.name).toBe('typemcp-everything');
    // Task-only tools are served too (tasks are relayed: gateway-tasks.e2e.spec.ts); nothing is left out.
    expect(stdio.skipped).toEqual([]);
  });
});

describe.each([
  ['SDK 1.x at 2025-11-25', 'sdk1'],
  ['SDK 2.x at 2025-11-25', 'legacy'],
  ['SDK 2.x at 2026-07-28', 'modern'],
] as const)('%s through the gateway', (_label, kind) => {
  let client: Client1 | Client2;
  const asked: unknown[] = [];

  beforeAll(async () => {
    client = kind === 'sdk1' ? await sdk1() : await sdk2(kind === 'modern');
    const sampled = () => ({ model: 'e2e', role: 'assistant' as const, content: { type: 'text' as const, text: SAMPLED } });
    const roots = () => ({ roots: ROOTS });
    if (client instanceof Client1) {
      client.setRequestHandler(ElicitRequestSchema, elicitationAnswers(asked));
      client.setRequestHandler(CreateMessageRequestSchema, sampled);
      client.setRequestHandler(ListRootsRequestSchema, roots);
    } else {
      client.setRequestHandler('elicitation/create', elicitationAnswers(asked));
      client.setRequestHandler('sampling/createMessage', sampled);
      client.setRequestHandler('roots/list', roots);
    }
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the local tool and every mount under its namespace', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['hello', 'notes_count', 'notes_wait', 'stdio_add', 'stdio_test_simple_text', 'remote_add', 'remote_test_elicitation']),
    );
    expect(names.filter((n) => !/^(hello|(notes|stdio|remote)_.+)$/.test(n))).toEqual([]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['stdio+test://static-text', 'remote+test://static-text']));
  });

  it('calls a tool of each mount, through the global interceptor', async () => {
    seen.length = 0;
    expect(textOf(await client.callTool({ name: 'hello', arguments: {} }))).toBe('hello from the gateway');
    expect(textOf(await client.callTool({ name: 'stdio_add', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(textOf(await client.callTool({ name: 'remote_add', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect(textOf(await client.callTool({ name: 'notes_count', arguments: {} }))).toBe('counted');
    expect(seen).toEqual([
      { name: 'hello', mounted: false },
      { name: 'stdio_add', mounted: true },
      { name: 'remote_add', mounted: true },
      { name: 'notes_count', mounted: true },
    ]);
  });

  it('reads resources with their URIs rewritten both ways', async () => {
    const read = await client.readResource({ uri: 'stdio+test://static-text' });
    expect(read.contents).toEqual([{ uri: 'stdio+test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]);
    const templated = await client.readResource({ uri: 'remote+test://template/42/data' });
    expect(templated.contents[0].uri).toBe('remote+test://template/42/data');
  });

  it.each(['notes_count', 'stdio_test_tool_with_progress', 'remote_test_tool_with_progress'])('relays the progress of %s', async (name) => {
    const progress: number[] = [];
    const onprogress = (p: { progress: number }) => progress.push(p.progress);
    if (client instanceof Client1) await client.callTool({ name, arguments: {} }, undefined, { onprogress });
    else await client.callTool({ name, arguments: {} }, { onprogress });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it.each(['stdio_test_elicitation', 'remote_test_elicitation'])('relays the elicitation of %s to the client and its answer back', async (name) => {
    asked.length = 0;
    const result = await client.callTool({ name, arguments: { message: 'What is your name?' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: expect.any(String) });
    expect(textOf(result)).toContain('accept');
  });

  it.each(['stdio', 'remote'])("relays the %s upstream's sampling and roots requests", async (ns) => {
    const sampled = await client.callTool({ name: `${ns}_test_sampling`, arguments: { prompt: 'Capital of France?' } });
    expect(textOf(sampled)).toBe(`LLM response: ${SAMPLED}`);
    const roots = await client.callTool({ name: `${ns}_test_list_roots`, arguments: {} });
    expect(JSON.parse(textOf(roots))).toEqual({ roots: ROOTS });
  });
});

describe('a subscription to a resource of the stdio upstream', () => {
  it('asks the upstream and relays its updates under the mounted URI', async () => {
    const client = await sdk1();
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    try {
      await client.subscribeResource({ uri: 'stdio+test://watched-resource' });
      await client.callTool({ name: 'stdio_test_update_watched_resource', arguments: {} });
      await eventually(() => updates.length > 0, 'the update');
      expect(updates).toEqual(['stdio+test://watched-resource']);
    } finally {
      await client.close();
    }
  });
});

/** Resolves once `check` holds (polled every 20 ms), rejects after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each([
  ['SDK 1.x at 2025-11-25', 'sdk1'],
  ['SDK 2.x at 2026-07-28', 'modern'],
] as const)('cancellation by the %s client', (_label, kind) => {
  it('reaches the in-process server and the HTTP upstream', async () => {
    const client = kind === 'sdk1' ? await sdk1() : await sdk2(true);
    try {
      const call = (name: string, args: Record<string, unknown>, signal: AbortSignal, onprogress?: () => void) =>
        client instanceof Client1
          ? client.callTool({ name, arguments: args }, undefined, { signal, onprogress })
          : client.callTool({ name, arguments: args }, { signal, onprogress });

      const before = NotesService.aborted;
      const stop = new AbortController();
      const waiting = call('notes_wait', {}, stop.signal).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 100));
      stop.abort();
      expect(await waiting).toBeInstanceOf(Error);
      await eventually(() => NotesService.aborted === before + 1, 'the in-process tool aborted');

      const cancels = CancelProbe.aborted;
      const slow = new AbortController();
      let progressed = false;
      const running = call('remote_probe_wait', {}, slow.signal, () => (progressed = true)).catch((e: Error) => e);
      await eventually(() => progressed, 'progress of the probe');
      slow.abort();
      expect(await running).toBeInstanceOf(Error);
      await eventually(() => CancelProbe.aborted > cancels, 'the remote upstream cancelled its tool');
    } finally {
      await client.close();
    }
  });
});

describe('list changes raised upstream', () => {
  it.each(['stdio', 'remote'])('arrive downstream for the %s mount', async (ns) => {
    const client = await sdk1();
    const changes: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push(Date.now()));
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      const before = await names();
      const dynamic = `${ns}_test_dynamic_tool`;
      await client.callTool({ name: `${ns}_test_toggle_dynamic_tool`, arguments: {} });
      await eventually(() => changes.length > 0, 'a first list change');
      expect((await names()).includes(dynamic)).toBe(!before.includes(dynamic));
      await client.callTool({ name: `${ns}_test_toggle_dynamic_tool`, arguments: {} });
      await eventually(() => changes.length > 1, 'a second list change');
      expect((await names()).includes(dynamic)).toBe(before.includes(dynamic));
    } finally {
      await client.close();
    }
  });
});

describe('the stdio upstream killed', () => {
  it('withdraws its tools, fails the call in flight, and serves them again once restarted', async () => {
    const client = await sdk1();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).toContain('stdio_add');
      const pid = stdio.pid!;
      expect(pid).toEqual(expect.any(Number));

      let progressed = false;
      const inFlight = client
        .callTool({ name: 'stdio_test_slow_operation', arguments: { durationMs: 20_000 } }, undefined, { onprogress: () => (progressed = true) })
        .catch((e: Error & { code?: number; data?: unknown }) => e);
      await eventually(() => progressed, 'progress of the slow operation');
      process.kill(pid, 'SIGKILL');

      const failed = (await inFlight) as Error & { code?: number; data?: { code?: string; mount?: string } };
      expect(failed).toBeInstanceOf(Error);
      expect(failed.data).toEqual({ code: 'TYPEMCP_GATEWAY_UPSTREAM_UNAVAILABLE', mount: 'stdio' });

      await eventually(() => changes > 0, 'the tools withdrawn');
      const whileDown = await names();
      expect(whileDown.filter((n) => n.startsWith('stdio_'))).toEqual([]);
      expect(whileDown).toEqual(expect.arrayContaining(['hello', 'notes_count', 'remote_add']));
      // Down for a second (the first reconnection waits 1000 ms): a call says so at once.
      expect(stdio.state).toBe('down');
      const refused = await client.callTool({ name: 'stdio_add', arguments: { a: 1, b: 1 } }).catch((e: Error & { data?: unknown }) => e);
      expect((refused as { data?: unknown }).data).toEqual({ code: 'TYPEMCP_GATEWAY_UPSTREAM_UNAVAILABLE', mount: 'stdio' });

      await stdio.whenUp(15_000);
      await eventually(async () => (await names()).includes('stdio_add'), 'the tools back');
      expect(stdio.pid).not.toBe(pid);
      expect(textOf(await client.callTool({ name: 'stdio_add', arguments: { a: 20, b: 22 } }))).toBe('42');
    } finally {
      await client.close();
    }
  }, 30_000);
});
