/**
 * End to end: every progress notification of `test_tool_with_progress` reaches the `onprogress`
 * callback of the official SDK clients, as users see it. The SDKs handle a notification on a
 * microtask but a response at once, and the response retires the progress token, so a progress
 * notification read in the same chunk as its response is dropped; the tool reports 100 % right
 * before it returns, which is exactly that case. The clients and transports are used plainly
 * (no recording wrapper that could change how the bytes are read): SDK 1.x and 2.x over stdio
 * (the built server, spawned), SDK 1.x over the legacy HTTP+SSE transport, and both over
 * Streamable HTTP (the built server, spawned with `--transport http --port 0`).
 *
 * Needs the everything app built first (`npx tsc -b`; npm test does it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport as StdioClientTransport1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2, StreamableHTTPClientTransport as StreamableHTTPClientTransport2, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransport2 } from '@modelcontextprotocol/client/stdio';
import { assertServerBuilt, type ServerEntry } from '../../../test/support/stdio-session';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const STDIO: ServerEntry = { main: MAIN, args: ['--transport', 'stdio'] };
/** Calls per client and transport: the loss showed on every call before the fix, but the point is "every time". */
const CALLS = 8;
const TIMEOUT = 5000;
/** What test_tool_with_progress reports (apps/everything/src/services/content-tools.service.ts). */
const STEPS = [0, 50, 100];

interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** One connected client, whichever SDK: calls the tool once, reporting progress to `onprogress`. */
interface Connected {
  call(onprogress: (p: Progress) => void): Promise<unknown>;
  errors: Error[];
  close(): Promise<void>;
}

const CALL = { name: 'test_tool_with_progress', arguments: {} };

async function sdk1(transport: Parameters<Client1['connect']>[0]): Promise<Connected> {
  const client = new Client1({ name: 'progress-e2e', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    call: (onprogress) => client.callTool(CALL, undefined, { timeout: TIMEOUT, onprogress }),
    errors,
    close: () => client.close(),
  };
}

async function sdk2(transport: Parameters<Client2['connect']>[0], options: ClientOptions = {}): Promise<Connected> {
  const client = new Client2({ name: 'progress-e2e', version: '2.0.0' }, options);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport, { timeout: TIMEOUT });
  return {
    call: (onprogress) => client.callTool(CALL, { timeout: TIMEOUT, onprogress }),
    errors,
    close: () => client.close(),
  };
}

const STDIO_ARGS = { command: process.execPath, args: [STDIO.main, ...(STDIO.args ?? [])], stderr: 'pipe' as const };

/** The built server over HTTP, in its own process: Streamable HTTP at /mcp, HTTP+SSE at /sse. */
let http: ChildProcess | undefined;
let mcpUrl: string;

beforeAll(async () => {
  assertServerBuilt(STDIO);
  http = spawn(process.execPath, [MAIN, '--transport', 'http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  mcpUrl = await new Promise<string>((resolve, reject) => {
    let text = '';
    http!.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const url = /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(text)?.[1];
      if (url) resolve(url);
    });
    http!.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${text}`)));
  });
});
afterAll(() => {
  http?.kill();
});

const CASES: [string, () => Promise<Connected>][] = [
  ['SDK 1.x over stdio', () => sdk1(new StdioClientTransport1(STDIO_ARGS))],
  ['SDK 2.x over stdio', () => sdk2(new StdioClientTransport2(STDIO_ARGS))],
  ['SDK 2.x over stdio at 2026-07-28', () => sdk2(new StdioClientTransport2(STDIO_ARGS), { versionNegotiation: { mode: 'auto' } })],
  ['SDK 1.x over HTTP+SSE', () => sdk1(new SSEClientTransport(new URL(mcpUrl.replace(/\/mcp$/, '/sse'))))],
  ['SDK 1.x over Streamable HTTP', () => sdk1(new StreamableHTTPClientTransport1(new URL(mcpUrl)))],
  ['SDK 2.x over Streamable HTTP', () => sdk2(new StreamableHTTPClientTransport2(new URL(mcpUrl)))],
  ['SDK 2.x over Streamable HTTP at 2026-07-28', () => sdk2(new StreamableHTTPClientTransport2(new URL(mcpUrl)), { versionNegotiation: { mode: 'auto' } })],
];

describe.each(CASES)('%s', (_name, open) => {
  let c: Connected;
  beforeAll(async () => {
    c = await open();
  });
  afterAll(() => c?.close());

  it(`delivers every progress notification of test_tool_with_progress to onprogress, ${CALLS} calls in a row`, async () => {
    const received: number[][] = [];
    for (let i = 0; i < CALLS; i++) {
      const progress: Progress[] = [];
      const result = (await c.call((p) => progress.push(p))) as { content: { type: string; text?: string }[] };
      // The tool echoes the progress token the client sent: the call really carried one.
      expect(result.content[0].text).not.toBe('no progress token');
      expect(progress.every((p) => p.total === 100 && p.message === `Completed step ${p.progress} of 100`)).toBe(true);
      received.push(progress.map((p) => p.progress));
    }
    expect(received).toEqual(Array.from({ length: CALLS }, () => STEPS));
    expect(c.errors.map(String)).toEqual([]);
  });
});
