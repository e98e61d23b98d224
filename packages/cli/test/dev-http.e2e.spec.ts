/**
 * `typemcp dev` on an HTTP-only generated project, driven by the official SDK clients (1.x and
 * 2.x) over Streamable HTTP: `typemcp dev` holds the port the server asks for, so an edit that
 * restarts the server keeps the client's session (its handshake is replayed to the new process,
 * its GET stream reopened and told that the lists changed), a request sent during the restart
 * waits for the new process, and one sent while the server is down is answered at once with
 * why. A stdio client reaches the same server through `typemcp dev --bridge`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { exitOf, launch, text, until } from './support/processes';
import { CLI, makeProject, removeProject } from './support/project';

/** Starts `typemcp dev` on the project (any free port: PORT=0, as the generated config reads it); resolves with the URL the server printed. */
async function startDev(dir: string) {
  const dev = launch(dir, process.execPath, [CLI, 'dev', 'src/main.ts'], { ...process.env, PORT: '0' });
  const line = await until('the server to listen', () => /serving MCP over Streamable HTTP at (\S+)/.exec(dev.stderr()) ?? undefined, 30_000);
  return { ...dev, url: new URL(line[1]!) };
}

describe('typemcp dev, HTTP-only project', () => {
  let dir: string;
  let file: string;
  let original: string;
  beforeAll(() => {
    dir = makeProject('example', 'http');
    file = path.join(dir, 'src/services/greeting.service.ts');
    original = readFileSync(file, 'utf8');
  });
  afterEach(() => writeFileSync(file, original));
  afterAll(() => removeProject(dir));

  it('keeps the SDK 1.x session across a restart: a call after the edit succeeds on the same session', async () => {
    const dev = await startDev(dir);
    const client = new Client({ name: 'dev-http-test', version: '0.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    const transport = new StreamableHTTPClientTransport(dev.url);
    try {
      await client.connect(transport);
      const session = transport.sessionId;
      expect(session).toBeDefined();
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');

      writeFileSync(file, original.replace("en: 'Hello'", "en: 'Howdy'"));
      await until('the restart', () => dev.stderr().includes('greeting.service.ts changed: restarting'));
      // Sent while the old process stops and the new one starts: it waits for the new one.
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Howdy, Ada!');
      expect(transport.sessionId).toBe(session);
      // The GET stream was reopened on the new process: the client hears that the lists may have changed.
      await until('list_changed', () => changes > 0);
      expect(dev.stderr()).not.toContain('TYPEMCP_HTTP_SESSION_NOT_FOUND');

      // A second restart, and the same session still works.
      writeFileSync(file, original.replace("en: 'Hello'", "en: 'Hey'"));
      await until('list_changed again', () => changes > 1, 20_000);
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hey, Ada!');
    } finally {
      await client.close();
      dev.child.kill('SIGTERM');
      await exitOf(dev.child);
    }
  }, 60_000);

  it('keeps the SDK 2.x session across a restart too', async () => {
    const dev = await startDev(dir);
    const client = new Client2({ name: 'dev-http-test', version: '0.0.0' });
    const transport = new Transport2(dev.url);
    try {
      await client.connect(transport);
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', language: 'fr' } }))).toBe('Bonjour, Ada!');
      writeFileSync(file, original.replace("fr: 'Bonjour'", "fr: 'Salut'"));
      await until('the restart', () => dev.stderr().includes('changed: restarting'));
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', language: 'fr' } }))).toBe('Salut, Ada!');
    } finally {
      await client.close();
      dev.child.kill('SIGTERM');
      await exitOf(dev.child);
    }
  }, 60_000);

  it('answers at once while the server is down, with the reason, and serves the same session once fixed', async () => {
    const dev = await startDev(dir);
    const client = new Client({ name: 'dev-http-test', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(dev.url);
    try {
      await client.connect(transport);
      writeFileSync(file, original.replace('greet(input: GreetInput): string {', 'greet(input: GreetInput): string {\n    return +;'));
      await until('the server to crash', () => dev.stderr().includes('waiting for a change to restart'));
      const down = Date.now();
      await expect(client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).rejects.toThrow(
        'typemcp dev: the server is not running (src/main.ts exited with code 1: src/services/greeting.service.ts:',
      );
      expect(Date.now() - down).toBeLessThan(2000);
      const restarts = () => dev.stderr().split('changed: restarting').length - 1;
      writeFileSync(file, original);
      await until('the restart', () => restarts() === 2);
      // Sent as soon as the restart begins: it waits for the fixed server, on the same session.
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
    } finally {
      await client.close();
      dev.child.kill('SIGTERM');
      await exitOf(dev.child);
    }
  }, 60_000);

  it('lets a stdio client in with --bridge, across restarts, and stops with its input', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'dev', '--bridge', 'src/main.ts'],
      cwd: dir,
      env: { ...(process.env as Record<string, string>), PORT: '0' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'dev-bridge-test', version: '0.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'app' });
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
      writeFileSync(file, original.replace("en: 'Hello'", "en: 'Howdy'"));
      await until('list_changed', () => changes > 0, 20_000);
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Howdy, Ada!');
      // The server's own line went to stderr: stdout carries only the protocol.
      expect(stderr).toContain('app: serving MCP over Streamable HTTP at http://127.0.0.1:');
    } finally {
      await client.close();
    }
    await until('typemcp dev to stop', () => stderr.includes('the client closed its input: stopping'));
  }, 60_000);

  it('--bridge: lines a client sends before the handshake is answered wait for the session', async () => {
    const dev = launch(dir, process.execPath, [CLI, 'dev', '--bridge', 'src/main.ts'], { ...process.env, PORT: '0' });
    const answers: string[] = [];
    createInterface({ input: dev.child.stdout! }).on('line', (line) => answers.push(line));
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
    dev.child.stdin!.write(
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' } } },
      ]
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    try {
      const call = await until('the answer to the call', () => answers.map((a) => JSON.parse(a) as { id?: number }).find((a) => a.id === 2), 30_000);
      expect(call).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Hello, Ada!' }] } });
    } finally {
      dev.child.stdin!.end();
      await exitOf(dev.child, 10_000);
    }
  }, 60_000);

  it('fails the server as node would when the port it asks for is taken (EADDRINUSE)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dev = launch(dir, process.execPath, [CLI, 'dev', 'src/main.ts'], { ...process.env, PORT: String(port) });
    try {
      await until('the server to exit', () => dev.stderr().includes('waiting for a change to restart'), 30_000);
      expect(dev.stderr()).toContain(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
    } finally {
      dev.child.kill('SIGTERM');
      await exitOf(dev.child);
      taken.close();
    }
  }, 60_000);
});
