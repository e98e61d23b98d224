/**
 * Runs a documentation block (see readme-snippets.ts for how blocks are found) against the built
 * packages, as a reader would run the file: written into a temporary folder, compiled by
 * test/support/ts-child.cjs (swc, decorator metadata), run by this node in a child process with
 * `@typemcp/*` and every other import resolved from this checkout's node_modules (NODE_PATH), so
 * `@typemcp/core` is the workspace's built package. What the run shows depends on the block:
 *
 * - a stdio server (`transport: 'stdio'`, `serveStdio(`): the official SDK client starts it over
 *   stdio and lists what it serves (`tools: a, b` / `prompts: ...` / `resources: ...` /
 *   `resource templates: ...`, one line per list the server has), then closes its stdin;
 * - an HTTP server (`transport: 'http'`, `serveHttp(`, `app.listen(`): run with its port numbers
 *   (3000, 8080) swapped for a free one and 0.0.0.0 for 127.0.0.1; it must accept connections,
 *   then the SDK client lists it over Streamable HTTP at /mcp when the block declares an output,
 *   and the process is stopped with SIGTERM;
 * - anything else: run to its end with stdin closed; it must exit 0, and what it prints on stdout
 *   is the output.
 *
 * The output is compared with the block's `<!-- snippet: output -->` text (none declared: it must
 * print nothing).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT, type Snippet } from './readme-snippets';

export type SnippetKind = 'stdio server' | 'http server' | 'script';

export interface SnippetRun {
  kind: SnippetKind;
  /** What it printed (a script) or listed (a server). */
  output: string;
  /** Its stderr, for the failure message. */
  stderr: string;
}

const TIMEOUT_MS = 30_000;

export function kindOf(code: string): SnippetKind {
  if (/transport:\s*'stdio'|serveStdio\(/.test(code)) return 'stdio server';
  if (/transport:\s*'http'|serveHttp\(|\.listen\(\s*\d+/.test(code)) return 'http server';
  return 'script';
}

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_PATH: path.join(ROOT, 'node_modules'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    // What the OAuth proxy blocks read for their clients' secrets: placeholders.
    OAUTH_CLIENT_ID: 'docs-snippet-client',
    OAUTH_CLIENT_SECRET: 'docs-snippet-secret',
    REPORT_SECRET: 'docs-snippet-report-secret-of-32-characters',
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createTcpServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What an SDK client lists: one line per list the server's capabilities offer. */
async function listing(client: Client): Promise<string> {
  const caps = client.getServerCapabilities() ?? {};
  const lines: string[] = [];
  if (caps.tools) lines.push(`tools: ${(await client.listTools()).tools.map((t) => t.name).join(', ')}`);
  if (caps.prompts) lines.push(`prompts: ${(await client.listPrompts()).prompts.map((p) => p.name).join(', ')}`);
  if (caps.resources) {
    lines.push(`resources: ${(await client.listResources()).resources.map((r) => r.uri).join(', ')}`);
    lines.push(`resource templates: ${(await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate).join(', ')}`);
  }
  return (lines.length ? lines.map((l) => l.trimEnd()).join('\n') : 'nothing listed') + '\n';
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no end after ${TIMEOUT_MS} ms`)), TIMEOUT_MS))),
  ]);
}

/** Runs one block; throws when it cannot be run as its kind says (the message carries its stderr). */
export async function runSnippet(snippet: Snippet): Promise<SnippetRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-snippet-'));
  const kind = kindOf(snippet.code);
  try {
    if (kind === 'stdio server') return await runStdio(dir, snippet.code);
    if (kind === 'http server') return await runHttp(dir, snippet.code, snippet.output !== undefined);
    return await runScript(dir, snippet.code);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const hook = path.join(ROOT, 'test/support/ts-child.cjs');

async function runStdio(dir: string, code: string): Promise<SnippetRun> {
  const file = path.join(dir, 'snippet.ts');
  writeFileSync(file, code);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', hook, file],
    cwd: dir,
    env: env() as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'docs-snippets', version: '1.0.0' });
  try {
    await withTimeout(client.connect(transport), 'connecting');
    return { kind: 'stdio server', output: await withTimeout(listing(client), 'listing'), stderr };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nstderr:\n${stderr}`, { cause: error });
  } finally {
    await client.close();
  }
}

async function runScript(dir: string, code: string): Promise<SnippetRun> {
  const file = path.join(dir, 'snippet.ts');
  writeFileSync(file, code);
  const child = spawn(process.execPath, ['-r', hook, file], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = await withTimeout(new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status))), 'running').catch((error: Error) => {
    child.kill('SIGKILL');
    throw error;
  });
  if (exit !== 0) throw new Error(`exited ${exit}\nstderr:\n${stderr}`);
  return { kind: 'script', output, stderr };
}

async function runHttp(dir: string, code: string, list: boolean): Promise<SnippetRun> {
  const port = await freePort();
  const file = path.join(dir, 'snippet.ts');
  writeFileSync(file, code.replace(/\b(3000|8080)\b/g, String(port)).replace(/'0\.0\.0\.0'/g, "'127.0.0.1'"));
  const child = spawn(process.execPath, ['-r', hook, file], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
  try {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before it listened`);
      if (await accepts(port)) break;
      if (Date.now() > deadline) throw new Error(`not listening on ${port} after ${TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (list) {
      const client = new Client({ name: 'docs-snippets', version: '1.0.0' });
      try {
        await withTimeout(client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`))), 'connecting');
        output += await withTimeout(listing(client), 'listing');
      } finally {
        await client.close();
      }
    }
    return { kind: 'http server', output, stderr };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nstderr:\n${stderr}`, { cause: error });
  } finally {
    child.kill('SIGTERM');
    await withTimeout(exited, 'stopping').catch(() => child.kill('SIGKILL'));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
